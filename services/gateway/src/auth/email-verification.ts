import type { Clock } from '@qrshirt/core';
import { renderMail } from '../mail/mail-templates';
import type { Accounts } from './accounts';
import type { CredentialsStore } from '@qrshirt/core';
import type { EmailSender } from './message-senders';
import { newSecret, sha256 } from './secrets';

/** Long enough for someone who signs up in the evening and reads their mail the next day. */
export const VERIFICATION_TTL_MS = 24 * 60 * 60_000;

export type VerificationOutcome =
  | { verified: true; email: string }
  /** 400: unknown, used or expired; 409: the account no longer uses the address it was sent to. */
  | { verified: false; status: 400 | 409; reason: string };

export interface EmailVerification {
  /** Mails the account's address a link that verifies it; resolves once the mail is stored. */
  sendLink(uid: string, email: string): Promise<void>;
  /** Spends a token from such a link. */
  verify(token: string): Promise<VerificationOutcome>;
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
  publicBaseUrl: string;
  clock: Clock;
}): EmailVerification {
  const { accounts, credentials, email: mailer, publicBaseUrl, clock } = deps;
  return {
    async sendLink(uid, email) {
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
    },
    async verify(token) {
      const uid = await credentials.takeOneTimeCode('email-verification', sha256(token), clock().getTime());
      if (!uid) return { verified: false, status: 400, reason: UNKNOWN_TOKEN };
      const { email } = await accounts.addressOf(uid);
      if (!email || (await accounts.emailHolder(email)) !== uid) {
        return {
          verified: false,
          status: 409,
          reason: 'This link was sent to an address your account no longer uses.',
        };
      }
      await accounts.verifyEmail(email, uid, 'link');
      return { verified: true, email };
    },
  };
}
