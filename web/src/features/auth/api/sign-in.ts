import { authSession, type AuthSession, type SignInRequest } from '@qrshirt/contracts';
import { useMutation } from '@tanstack/react-query';
import { callWithoutSession } from '@/lib/http';
import { completeSignIn } from './complete-sign-in';

/** POST /api/auth/signin with email and password. */
async function signIn(input: SignInRequest): Promise<AuthSession> {
  return completeSignIn(await callWithoutSession('signIn', { body: input, schema: authSession }));
}

export function useSignIn() {
  return useMutation({ mutationFn: signIn });
}
