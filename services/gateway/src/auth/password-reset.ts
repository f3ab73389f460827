import { isTooShortPassword, type PasswordResetConfirmRequest, type PasswordResetRequest } from '@qrshirt/contracts';
import {
  type Accounts,
  type Clock,
  type CredentialsStore,
  endMailedLinks,
  isValidEmailAddress,
  type LookupKeys,
  type OneTimeCode,
} from '@qrshirt/core';
import { renderMail } from '../mail/mail-templates';
import { addressBinding, boundTo } from './address-binding';
import { authError } from './auth-errors';
import type { EmailSender } from '../mail/message-senders';
import type { PasswordHasher } from './passwords';
import { accountMail, limitByIp, type RateLimiter } from './rate-limiter';
import { newSecret, sha256 } from './secrets';

const RESET_TTL_MS = 60 * 60_000;

interface PasswordResetDeps {
  accounts: Accounts;
  credentials: CredentialsStore;
  passwords: PasswordHasher;
  limiter: RateLimiter;
  email: EmailSender;
  publicBaseUrl: string;
  /** Names the recipient in its account's budget of mail. */
  lookupKeys: Pick<LookupKeys, 'email'>;
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
  passwords,
  limiter,
  email: mailer,
  publicBaseUrl,
  lookupKeys,
  clock,
}: PasswordResetDeps) {
  async function resetMail(email: string, uid: string | null) {
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
    await credentials.addOneTimeCode(
      'password-reset',
      sha256(token),
      { uid, expiresAt: now + RESET_TTL_MS, addressHash: addressBinding(token, email) },
      now,
    );
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

  /**
   * The address the link was mailed to, if its account still holds it: the account's address, or
   * the one it is moving away from (a change of address cut short). Null for a code stored before
   * links were bound.
   */
  async function addressStillHeld(code: OneTimeCode, token: string): Promise<string | null> {
    const user = await accounts.profile(code.uid);
    if (!user || user.closed) return null;
    for (const address of [user.email, user.previousEmail]) {
      if (address && boundTo(code, token, address) && (await accounts.emailHolder(address)) === code.uid) {
        return address;
      }
    }
    return null;
  }

  return {
    /** Resolves once the mail is stored; `client` is the caller's address. */
    async request(input: PasswordResetRequest, client: string): Promise<void> {
      const email = input.email.trim();
      if (!isValidEmailAddress(email)) throw authError(400, 'invalid-email');
      const uid = await accounts.emailHolder(email);
      // Every request sends an email: all count, success or not.
      await limiter.attempt(accountMail(uid, lookupKeys.email(email), client));
      // An account whose sign-up stopped after the reservation is completed, so the link acts for it.
      if (uid && !(await accounts.profile(uid))) await accounts.registerHalfMade(uid, email);
      await mailer.sendEmail(await resetMail(email, uid));
    },

    /**
     * Sets the password of the account the link was mailed for, while that account still holds
     * the address it was mailed to (else it does nothing: code-expired); `client` is the caller's
     * address.
     */
    async confirm({ token, password }: PasswordResetConfirmRequest, client: string): Promise<void> {
      if (isTooShortPassword(password)) throw authError(400, 'weak-password');
      const byIp = [limitByIp('password-reset-confirm', client)];
      await limiter.attempt(byIp);
      const hash = await passwords.hash(password);
      const code = await credentials.takeOneTimeCode('password-reset', sha256(token), clock().getTime());
      const email = code && (await addressStillHeld(code, token));
      if (!code || !email) throw authError(400, 'code-expired');
      const { uid } = code;
      // Recovering the account: whatever a squatter had mailed to act for it (a change of
      // address's link would take it back) goes before the new password is set.
      await endMailedLinks(credentials, uid);
      await credentials.setPasswordHash(uid, hash);
      // Whoever knew the old password may hold sessions: they end with it, access tokens too.
      await credentials.endSessionsOf(uid, clock().getTime());
      // The link was mailed to this address: following it proves the address is theirs.
      await accounts.verifyEmail(email, uid, 'link');
      await limiter.forgive(byIp);
    },
  };
}
export type PasswordReset = ReturnType<typeof createPasswordReset>;
