import type { VerifyEmailAnswer } from '@qrshirt/contracts';
import type { Clock, CredentialsStore } from '@qrshirt/core';
import { HttpError } from '../http/http-error';
import { renderMail } from '../mail/mail-templates';
import type { Accounts } from './accounts';
import type { EmailSender } from './message-senders';
import { type RateLimiter, strangerMail } from './rate-limiter';
import { newSecret, sha256 } from './secrets';

/** Long enough for someone who signs up in the evening and reads their mail the next day. */
export const VERIFICATION_TTL_MS = 24 * 60 * 60_000;

export interface EmailVerification {
  /** Mails the account's address a link that verifies it; resolves once the mail is stored. */
  sendLink(uid: string, email: string): Promise<void>;
  /**
   * Spends a token from such a link: 400 when it is unknown, used or expired; 409 when the account
   * no longer uses the address it was sent to.
   */
  verify(token: string): Promise<VerifyEmailAnswer>;
  /** A fresh link for an account whose address is not verified yet; `client` is the caller's address. */
  resend(uid: string, client: string): Promise<void>;
}

const UNKNOWN_TOKEN = 'This verification link is unknown, used or expired. Ask for a new one from your dashboard.';

/**
 * An address counts as someone's only once they followed a link mailed to it (design section 7).
 * The link's token is stored hashed and works once; it names the account, and the address it
 * verifies is the one that account holds, so a link mailed before a profile change verifies nothing.
 */
export function createEmailVerification(deps: {
  accounts: Accounts;
  credentials: CredentialsStore;
  email: EmailSender;
  limiter: RateLimiter;
  publicBaseUrl: string;
  clock: Clock;
}): EmailVerification {
  const { accounts, credentials, email: mailer, limiter, publicBaseUrl, clock } = deps;

  async function sendLink(uid: string, email: string): Promise<void> {
    const token = newSecret();
    const now = clock().getTime();
    await credentials.addOneTimeCode(
      'email-verification',
      sha256(token),
      { uid, expiresAt: now + VERIFICATION_TTL_MS },
      now,
    );
    await mailer.sendEmail(
      renderMail({
        to: email,
        subject: 'Confirm your email address',
        heading: 'Confirm your email address',
        paragraphs: [
          'Welcome to QR Shirts! Please confirm that this address is yours, so we can send you news about your shirt and let you claim it.',
        ],
        action: { label: 'Confirm my address', url: `${publicBaseUrl}/verify-email#token=${token}` },
        note: 'The link works once, within 24 hours. If you did not sign up, ignore this email: nothing happens without it.',
      }),
    );
  }

  return {
    sendLink,
    async verify(token) {
      const uid = await credentials.takeOneTimeCode('email-verification', sha256(token), clock().getTime());
      if (!uid) throw new HttpError(400, UNKNOWN_TOKEN);
      const { email } = await accounts.addressOf(uid);
      if (!email || (await accounts.emailHolder(email)) !== uid) {
        throw new HttpError(409, 'This link was sent to an address your account no longer uses.');
      }
      await accounts.verifyEmail(email, uid, 'link');
      return { email, emailVerified: true };
    },
    async resend(uid, client) {
      const { email, verified } = await accounts.addressOf(uid);
      if (!email) throw new HttpError(409, 'Your account has no email address to verify');
      if (verified) throw new HttpError(409, 'Your email address is already verified');
      // Shares the budget of every mail a stranger could make us send to this address.
      await limiter.attempt(strangerMail(email, client));
      await sendLink(uid, email);
    },
  };
}
