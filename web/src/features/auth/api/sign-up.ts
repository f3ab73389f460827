import { authSession, type AuthSession, type SignUpRequest } from '@qrshirt/contracts';
import { useMutation } from '@tanstack/react-query';
import { requestJson } from '@/lib/http';
import { completeSignIn } from './complete-sign-in';

/** POST /api/auth/signup: creates the account and signs it in (201). */
export async function signUp(input: SignUpRequest): Promise<AuthSession> {
  return completeSignIn(await requestJson('/api/auth/signup', { method: 'POST', body: input, schema: authSession }));
}

export function useSignUp() {
  return useMutation({ mutationFn: signUp });
}
