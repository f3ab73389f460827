import { authSession, type AuthSession } from '@qrshirt/contracts';
import { useMutation } from '@tanstack/react-query';
import { callWithoutSession } from '@/lib/http';
import { completeSignIn } from './complete-sign-in';

/** POST /api/auth/exchange: trades the one-time code Google's callback left in the URL. */
async function exchangeGoogleCode(code: string): Promise<AuthSession> {
  return completeSignIn(await callWithoutSession('exchangeGoogleCode', { body: { code }, schema: authSession }));
}

export function useExchangeGoogleCode() {
  return useMutation({ mutationFn: exchangeGoogleCode });
}
