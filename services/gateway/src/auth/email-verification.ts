import { type EmailLinkPreview, linkAskedBy, type VerifyEmailAnswer } from '@qrshirt/contracts';
import type { Accounts, Clock, CredentialsStore, LookupKeys, OneTimeCode } from '@qrshirt/core';
import { HttpError } from '../http/http-error';
import { renderMail } from '../mail/mail-templates';
import { addressBinding, boundTo } from './address-binding';
import type { EmailChange } from './email-change';
import type { EmailSender } from '../mail/message-senders';
import type { Identity } from './identity';
import { assertAskedBy, isAskedBy } from './link-asker';
import { accountMail, type RateLimiter } from './rate-limiter';
import { newSecret, sha256 } from './secrets';

/** Long enough for someone who signs up in the evening and reads their mail the next day. */
const VERIFICATION_TTL_MS = 24 * 60 * 60_000;

export interface EmailVerification {
  /** Mails the account's address a link that verifies it; resolves once the mail is stored. */
  sendLink(uid: string, email: string): Promise<void>;
  /**
   * Spends a token from such a link, with the session of the account that asked for it (`caller`;
   * else 401 or 403, and the link stays): 400 when it is unknown, used or expired; 409 when the
   * account no longer holds the address it was sent to. With `email`, the token is a change of
   * address's (see email-change.ts), and `email` the new address from its link.
   */
  verify(token: string, email: string | undefined, caller: Identity | undefined): Promise<VerifyEmailAnswer>;
  /** What following such a link would do, and for which account, without spending it. */
  preview(token: string, email: string | undefined, caller: Identity | undefined): Promise<EmailLinkPreview>;
  /** A fresh link for an account whose address is not verified yet; `client` is the caller's address. */
  resend(uid: string, client: string): Promise<void>;
}

const UNKNOWN_TOKEN = 'This verification link is unknown, used or expired. Ask for a new one from your dashboard.';
const NOT_HELD = 'This link was sent to an address your account no longer uses.';

/**
 * An address counts as someone's only once they followed a link mailed to it (design section 7).
 * Only the address the account holds (its reservation names the account) is ever mailed, and the
 * link's token, stored hashed, works once and is bound to that address: following it verifies
 * the address only while the account still holds it, so a link mailed before a change of address
 * verifies nothing. The mail names the account that asked, and the link verifies only with that
 * account's session: the address's owner, opening a link a squatter's sign-up had mailed them, gives
 * the squatter nothing. A change of address's link is followed through the same page and route,
 * which need not know which kind of link they hold.
 */
export function createEmailVerification(deps: {
  accounts: Accounts;
  credentials: CredentialsStore;
  email: EmailSender;
  limiter: RateLimiter;
  emailChange: Pick<EmailChange, 'follow' | 'preview'>;
  publicBaseUrl: string;
  /** Names the recipient in its account's budget of mail. */
  lookupKeys: Pick<LookupKeys, 'email'>;
  clock: Clock;
}): EmailVerification {
  const { accounts, credentials, email: mailer, limiter, emailChange, publicBaseUrl, lookupKeys, clock } = deps;

  async function sendLink(uid: string, email: string): Promise<void> {
    const token = newSecret();
    const now = clock().getTime();
    const displayName = (await accounts.profile(uid))?.displayName ?? null;
    await credentials.addOneTimeCode(
      'email-verification',
      sha256(token),
      { uid, expiresAt: now + VERIFICATION_TTL_MS, addressHash: addressBinding(token, email) },
      now,
    );
    await mailer.sendEmail(
      renderMail({
        to: email,
        subject: 'Confirm your email address',
        heading: 'Confirm your email address',
        paragraphs: [
          `${linkAskedBy(displayName, 'this address')} on QR Shirts.`,
          'If that account is yours, open this link and confirm while signed in to it, so we can send you news about your shirt and let you claim it.',
        ],
        action: { label: 'Confirm my address', url: `${publicBaseUrl}/verify-email#token=${token}` },
        note: 'The link works once, within 24 hours. If you did not sign up, ignore this email: nothing happens without it.',
      }),
    );
  }

  /** The link's code, left in place; 400 when it is unknown, used or expired. */
  async function findCode(token: string): Promise<OneTimeCode> {
    const code = await credentials.findOneTimeCode('email-verification', sha256(token), clock().getTime());
    // A code stored before links were bound names no address: it is as good as expired.
    if (!code?.addressHash) throw new HttpError(400, UNKNOWN_TOKEN);
    return code;
  }

  /** The account's address and display name, while it still holds the address the link was mailed to. */
  async function addressOfLink(code: OneTimeCode, token: string) {
    const user = await accounts.profile(code.uid);
    const email = user && !user.closed ? user.email : null;
    const holder = email ? await accounts.reservationOf(email) : null;
    if (!user || !email || holder?.userId !== code.uid || !boundTo(code, token, email)) return null;
    return { email, displayName: user.displayName };
  }

  return {
    sendLink,
    async verify(token, changeTo, caller) {
      if (changeTo !== undefined) return emailChange.follow(token, changeTo, caller);
      assertAskedBy((await findCode(token)).uid, caller);
      const code = await credentials.takeOneTimeCode('email-verification', sha256(token), clock().getTime());
      if (!code?.addressHash) throw new HttpError(400, UNKNOWN_TOKEN);
      const address = await addressOfLink(code, token);
      if (!address) throw new HttpError(409, NOT_HELD);
      await accounts.verifyEmail(address.email, code.uid, 'link');
      return { email: address.email, emailVerified: true };
    },
    async preview(token, changeTo, caller) {
      if (changeTo !== undefined) return emailChange.preview(token, changeTo, caller);
      const code = await findCode(token);
      const address = await addressOfLink(code, token);
      if (!address) throw new HttpError(409, NOT_HELD);
      return { ...address, change: false, yours: isAskedBy(code.uid, caller) };
    },
    async resend(uid, client) {
      const email = (await accounts.profile(uid))?.email;
      if (!email) throw new HttpError(409, 'Your account has no email address to verify');
      const holder = await accounts.reservationOf(email);
      if (holder?.userId !== uid) {
        throw new HttpError(409, 'Your account does not hold its email address: change it from Edit Profile');
      }
      if (holder.verified) throw new HttpError(409, 'Your email address is already verified');
      await limiter.attempt(accountMail(uid, lookupKeys.email(email), client));
      await sendLink(uid, email);
    },
  };
}
