import { user, type VerifyEmailAnswer, verifyEmailAnswer } from '@qrshirt/contracts';
import { type QueryClient, type QueryKey, useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '@/lib/api-client';
import { updateSessionUser } from '@/lib/auth/auth-lifecycle';
import { getAuthState } from '@/lib/auth/session-store';

/** What a mailed link carries: its token, and the new address for a change of address's link. */
export interface VerificationLink {
  token: string;
  email: string | null;
}

/**
 * POST /api/auth/verify-email: spends the token of the link sign-up (or a change of address)
 * mailed; the link's new address goes with the token.
 */
function verifyEmail({ token, email }: VerificationLink): Promise<VerifyEmailAnswer> {
  return call('verifyEmail', {
    body: email === null ? { token } : { token, email },
    schema: verifyEmailAnswer,
  });
}

/**
 * After a change of address, the signed-in session shows the account's address as the server has
 * it: the link may have been opened in a browser signed in to another account, whose address stays.
 */
async function refreshSessionEmail(): Promise<void> {
  const { session } = getAuthState();
  if (!session || session.user.anonymous) return;
  const profile = await call('getUser', { params: { id: session.user.uid }, schema: user });
  updateSessionUser({ email: profile.email });
}

/**
 * Asks again with what the server knows now. A request sent before the link was followed is
 * dropped first: invalidating alone would let a first answer still in flight (a query with no
 * data yet is not refetched, its request is joined) land afterwards as fresh for its stale time.
 */
async function askAgain(queryClient: QueryClient, queryKey: QueryKey): Promise<void> {
  await queryClient.cancelQueries({ queryKey });
  await queryClient.invalidateQueries({ queryKey });
}

export function useVerifyEmail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: verifyEmail,
    onSuccess: async (answer) => {
      // Every `me` (the dashboard's banner, the admin link) asks again.
      await askAgain(queryClient, ['me']);
      if (answer.changed) {
        await askAgain(queryClient, ['profile']);
        await refreshSessionEmail().catch((error: unknown) =>
          console.warn('Reading the changed address back failed', error),
        );
      }
    },
  });
}
