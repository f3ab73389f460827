import { authSession, type AuthSession, PROOF_OF_WORK_HEADER, type SignUpRequest } from '@qrshirt/contracts';
import { useMutation } from '@tanstack/react-query';
import { callWithoutSession } from '@/lib/http';
import { completeSignIn } from './complete-sign-in';

/** POST /api/auth/signup with a solved proof of work: creates the account and signs it in (201). */
async function signUp(input: SignUpRequest, proofOfWork: string): Promise<AuthSession> {
  return completeSignIn(
    await callWithoutSession('signUp', {
      body: input,
      headers: { [PROOF_OF_WORK_HEADER]: proofOfWork },
      schema: authSession,
    }),
  );
}

/** Solves the proof of work (`solve`) as part of sending: the button stays busy throughout. */
export function useSignUp(solve: () => Promise<string>) {
  return useMutation({ mutationFn: async (input: SignUpRequest) => signUp(input, await solve()) });
}
