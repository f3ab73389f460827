import { PROOF_OF_WORK_HEADER } from '@qrshirt/contracts';
import { useMutation } from '@tanstack/react-query';
import { call } from '@/lib/api-client';

/** POST /api/auth/verify-email/resend with a solved proof of work: mails the signed-in account a fresh verification link. */
function resendVerification(proofOfWork: string): Promise<void> {
  return call('resendVerification', { headers: { [PROOF_OF_WORK_HEADER]: proofOfWork } });
}

/** Solves the proof of work (`solve`) as part of sending: the button stays busy throughout. */
export function useResendVerification(solve: () => Promise<string>) {
  return useMutation({ mutationFn: async () => resendVerification(await solve()) });
}
