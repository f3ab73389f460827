import { useMutation } from '@tanstack/react-query';
import { call } from '@/lib/api-client';

/** DELETE /api/user/{id}: closes the signed-in user's own account (the caller then signs out). */
async function closeAccount(uid: string, password: string): Promise<void> {
  await call('closeAccount', { params: { id: uid }, body: password ? { password } : {} });
}

export function useCloseAccount(uid: string) {
  return useMutation({ mutationFn: (password: string) => closeAccount(uid, password) });
}
