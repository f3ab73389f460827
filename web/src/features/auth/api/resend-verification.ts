import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** POST /api/auth/verify-email/resend: mails the signed-in account a fresh verification link. */
export function resendVerification(): Promise<void> {
  return api('/api/auth/verify-email/resend', { method: 'POST', requiresAuth: true });
}

export function useResendVerification() {
  return useMutation({ mutationFn: resendVerification });
}
