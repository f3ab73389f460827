import { type VerifyEmailAnswer, verifyEmailAnswer } from '@qrshirt/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** POST /api/auth/verify-email: spends the token of the link sign-up mailed. */
export function verifyEmail(token: string): Promise<VerifyEmailAnswer> {
  return api('/api/auth/verify-email', { method: 'POST', body: { token }, schema: verifyEmailAnswer });
}

export function useVerifyEmail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: verifyEmail,
    // Every `me` (the dashboard's banner, the admin link) asks again.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['me'] }),
  });
}
