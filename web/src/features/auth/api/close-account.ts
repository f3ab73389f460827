import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** DELETE /api/user/{id}: closes the signed-in user's own account (the caller then signs out). */
export async function closeAccount(uid: string, password: string): Promise<void> {
  await api(`/api/user/${encodeURIComponent(uid)}`, {
    method: 'DELETE',
    body: password ? { password } : {},
    requiresAuth: true,
  });
}

export function useCloseAccount(uid: string) {
  return useMutation({ mutationFn: (password: string) => closeAccount(uid, password) });
}
