import { PROOF_OF_WORK_HEADER } from '@qrshirt/contracts';
import { useMutation } from '@tanstack/react-query';
import { callWithoutSession } from '@/lib/http';

/** POST /api/auth/password-reset with a solved proof of work: emails a link to /signin#reset=<token> if the account exists. */
function requestPasswordReset(email: string, proofOfWork: string): Promise<void> {
  return callWithoutSession('requestPasswordReset', {
    body: { email },
    headers: { [PROOF_OF_WORK_HEADER]: proofOfWork },
  });
}

/** Solves the proof of work (`solve`) as part of sending: the button stays busy throughout. */
export function useRequestPasswordReset(solve: () => Promise<string>) {
  return useMutation({ mutationFn: async (email: string) => requestPasswordReset(email, await solve()) });
}
