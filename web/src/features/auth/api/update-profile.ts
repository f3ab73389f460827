import { type UpdateProfileRequest, user, type User } from '@qrshirt/contracts';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { updateSessionUser } from '@/lib/auth/auth-lifecycle';

/** PATCH /api/user/{id}: the signed-in user's display name and photo. */
export async function updateProfile(uid: string, change: UpdateProfileRequest): Promise<User> {
  const updated = await api(`/api/user/${encodeURIComponent(uid)}`, {
    method: 'PATCH',
    body: change,
    schema: user,
    requiresAuth: true,
  });
  updateSessionUser({ displayName: updated.displayName, photoURL: updated.photoURL });
  return updated;
}

export function useUpdateProfile(uid: string) {
  return useMutation({ mutationFn: (change: UpdateProfileRequest) => updateProfile(uid, change) });
}
