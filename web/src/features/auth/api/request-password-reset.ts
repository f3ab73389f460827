import { useMutation } from '@tanstack/react-query';
import { requestJson } from '@/lib/http';

/** POST /api/auth/password-reset: emails a link to /signin#reset=<token> if the account exists. */
export function requestPasswordReset(email: string): Promise<void> {
  return requestJson('/api/auth/password-reset', { method: 'POST', body: { email } });
}

export function useRequestPasswordReset() {
  return useMutation({ mutationFn: requestPasswordReset });
}
