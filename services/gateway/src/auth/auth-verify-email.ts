import type { emailVerificationRoutes } from '@qrshirt/contracts';
import type { HandlersOf } from '../http/route-table';
import { clientAddress } from '../http/client-limits';
import type { AuthContext } from './auth-context';

/**
 * Address verification: the link's page posts the token (anyone holding the link may, signed in
 * or not: the mailbox is the proof), with the new address for a change of address's link, and a
 * signed-in user may ask for a fresh link.
 */
export function verifyEmailHandlers({ verification }: AuthContext): HandlersOf<typeof emailVerificationRoutes> {
  return {
    async verifyEmail({ body: { token, email } }) {
      return { status: 200, body: await verification.verify(token, email) };
    },
    async resendVerification({ user: { uid }, req }) {
      await verification.resend(uid, clientAddress(req));
      return { status: 202 };
    },
  };
}
