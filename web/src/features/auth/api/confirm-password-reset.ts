import { type PasswordResetConfirmRequest } from '@qrshirt/contracts';
import { useMutation } from '@tanstack/react-query';
import { callWithoutSession } from '@/lib/http';

/** POST /api/auth/password-reset/confirm: the emailed token and the new password. */
function confirmPasswordReset(input: PasswordResetConfirmRequest): Promise<void> {
  return callWithoutSession('confirmPasswordReset', { body: input });
}

export function useConfirmPasswordReset() {
  return useMutation({ mutationFn: confirmPasswordReset });
}
