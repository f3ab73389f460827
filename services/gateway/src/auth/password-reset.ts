import { isTooShortPassword, type PasswordResetConfirmRequest, type PasswordResetRequest } from '@qrshirt/contracts';
import { type Clock, type CredentialsStore, isValidEmailAddress } from '@qrshirt/core';
import { renderMail } from '../mail/mail-templates';
import type { Accounts } from './accounts';
import { authError } from './auth-errors';
import type { EmailSender } from './message-senders';
import { hashPassword } from './passwords';
import { limitByIp, type RateLimiter, strangerMail } from './rate-limiter';
import { newSecret, sha256 } from './secrets';

const RESET_TTL_MS = 60 * 60_000;

export interface PasswordResetDeps {
  accounts: Accounts;
  credentials: CredentialsStore;
  limiter: RateLimiter;
  email: EmailSender;
  publicBaseUrl: string;
  clock: Clock;
}

/**
 * Reset by an emailed link. Whether or not the address has an account, a mail is stored before the
 * answer (a link, or a note that no account uses the address), so neither the answer nor its
 * timing tells anyone which addresses are registered.
 */
export function createPasswordReset({
  accounts,
  credentials,
  limiter,
  email: mailer,
  publicBaseUrl,
  clock,
}: PasswordResetDeps) {
  async function resetMail(email: string) {
    const uid = await accounts.emailHolder(email);
    if (!uid) {
      return renderMail({
        to: email,
        subject: 'About your password reset request',
        heading: 'No account uses this address',
        paragraphs: [
          'Someone asked to reset the password of a QR Shirts account with this email address, but no account uses it.',
          'If it was you, you may have signed up with another address, or you can create an account.',
        ],
        action: { label: 'Sign up', url: `${publicBaseUrl}/signin` },
        note: 'If it was not you, ignore this email.',
      });
    }
    const token = newSecret();
    const now = clock().getTime();
    await credentials.addOneTimeCode('password-reset', sha256(token), { uid, expiresAt: now + RESET_TTL_MS }, now);
    return renderMail({
      to: email,
      subject: 'Reset your QR Shirts password',
      heading: 'Choose a new password',
      paragraphs: [
        'Someone asked to reset the password of your QR Shirts account. To choose a new one, open this link.',
      ],
      action: { label: 'Choose a new password', url: `${publicBaseUrl}/signin#reset=${token}` },
      note: 'The link works once, within an hour. If it was not you, ignore this email: your password stays as it is.',
    });
  }

  return {
    /** Resolves once the mail is stored; `client` is the caller's address. */
    async request(input: PasswordResetRequest, client: string): Promise<void> {
      const email = input.email.trim();
      if (!isValidEmailAddress(email)) throw authError(400, 'invalid-email');
      // Every request sends an email: all count, success or not.
      await limiter.attempt(strangerMail(email, client));
      await mailer.sendEmail(await resetMail(email));
    },

    /** Sets the password of the account the link was mailed for; `client` is the caller's address. */
    async confirm({ token, password }: PasswordResetConfirmRequest, client: string): Promise<void> {
      if (isTooShortPassword(password)) throw authError(400, 'weak-password');
      const byIp = [limitByIp('password-reset-confirm', client)];
      await limiter.attempt(byIp);
      const hash = await hashPassword(password);
      const uid = await credentials.takeOneTimeCode('password-reset', sha256(token), clock().getTime());
      if (!uid) throw authError(400, 'code-expired');
      await credentials.setPasswordHash(uid, hash);
      // Whoever knew the old password may hold sessions: they end with it, access tokens too.
      await credentials.endSessionsOf(uid, clock().getTime());
      // The link was mailed to the account's address: following it proves the address is theirs.
      const { email, verified } = await accounts.addressOf(uid);
      if (email && !verified && (await accounts.emailHolder(email)) === uid)
        await accounts.verifyEmail(email, uid, 'link');
      await limiter.forgive(byIp);
    },
  };
}
export type PasswordReset = ReturnType<typeof createPasswordReset>;
