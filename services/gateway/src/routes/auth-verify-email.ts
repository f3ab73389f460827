import { emailKey } from '@qrshirt/core';
import { limitByAccount, limitByIp } from '../auth/rate-limiter';
import { HttpError } from '../http/http-error';
import type { Handlers } from '../http/route-table';
import { type AuthContext, clientAddress } from './auth-context';

/**
 * Address verification: the link's page posts the token (anyone holding the link may, signed in
 * or not: the mailbox is the proof), and a signed-in user may ask for a fresh link.
 */
export function verifyEmailHandlers({
  accounts,
  limiter,
  verification,
}: AuthContext): Pick<Handlers, 'verifyEmail' | 'resendVerification'> {
  return {
    async verifyEmail({ body: { token } }) {
      const outcome = await verification.verify(token);
      if (!outcome.verified) throw new HttpError(outcome.status, outcome.reason);
      return { status: 200, body: { email: outcome.email, emailVerified: true } };
    },
    async resendVerification({ user: { uid }, req }) {
      const { email, verified } = await accounts.addressOf(uid);
      if (!email) throw new HttpError(409, 'Your account has no email address to verify');
      if (verified) throw new HttpError(409, 'Your email address is already verified');
      // Shares the budget of every mail a stranger could make us send to this address.
      await limiter.attempt([limitByIp('mail', clientAddress(req)), limitByAccount('mail', emailKey(email))]);
      await verification.sendLink(uid, email);
      return { status: 202 };
    },
  };
}
