import { type UpdateProfileRequest, user, type User } from '@qrshirt/contracts';
import { useMutation } from '@tanstack/react-query';
import { call } from '@/lib/api-client';
import { updateSessionUser } from '@/lib/auth/auth-lifecycle';

/** PATCH /api/user/{id}: the signed-in user's display name and photo. */
async function updateProfile(uid: string, change: UpdateProfileRequest): Promise<User> {
  const updated = await call('updateProfile', { params: { id: uid }, body: change, schema: user });
  updateSessionUser({ displayName: updated.displayName, photoURL: updated.photoURL });
  return updated;
}

export function useUpdateProfile(uid: string) {
  return useMutation({ mutationFn: (change: UpdateProfileRequest) => updateProfile(uid, change) });
}
