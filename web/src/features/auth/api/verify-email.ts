import { user, type VerifyEmailAnswer, verifyEmailAnswer } from '@qrshirt/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
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

export function useVerifyEmail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: verifyEmail,
    onSuccess: async (answer) => {
      // Every `me` (the dashboard's banner, the admin link) asks again.
      await queryClient.invalidateQueries({ queryKey: ['me'] });
      if (answer.changed) {
        await queryClient.invalidateQueries({ queryKey: ['profile'] });
        await refreshSessionEmail().catch((error: unknown) =>
          console.warn('Reading the changed address back failed', error),
        );
      }
    },
  });
}
