import type { emailVerificationRoutes } from '@qrshirt/contracts';
import type { HandlersOf } from '../http/route-table';
import { clientAddress } from '../http/client-limits';
import type { AuthContext } from './auth-context';

/**
 * Address verification: the link's page asks what the link would do, then posts the token with
 * the session of the account that asked for it (the mailbox proves the address, the session the
 * account), with the new address for a change of address's link; a signed-in user may ask for a
 * fresh link.
 */
export function verifyEmailHandlers({ verification }: AuthContext): HandlersOf<typeof emailVerificationRoutes> {
  return {
    async verifyEmail({ body: { token, email }, user }) {
      return { status: 200, body: await verification.verify(token, email, user) };
    },
    async previewEmailLink({ body: { token, email }, user }) {
      return { status: 200, body: await verification.preview(token, email, user) };
    },
    async resendVerification({ user: { uid }, req }) {
      await verification.resend(uid, clientAddress(req));
      return { status: 202 };
    },
  };
}
