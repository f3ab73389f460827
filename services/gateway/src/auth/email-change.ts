import type { VerifyEmailAnswer } from '@qrshirt/contracts';
import {
  type Accounts,
  type Caller,
  type Clock,
  type CredentialsStore,
  DomainError,
  endMailedLinks,
  isValidEmailAddress,
  type LookupKeys,
  sameEmailAddress,
} from '@qrshirt/core';
import { HttpError } from '../http/http-error';
import { renderMail } from '../mail/mail-templates';
import { addressBinding, boundTo } from './address-binding';
import { authError } from './auth-errors';
import type { EmailSender } from '../mail/message-senders';
import { accountMail, limitByAccount, type RateLimiter } from './rate-limiter';
import { newSecret, sha256 } from './secrets';

/** As long as a verification link: the new address's mail may be read the next day. */
const CHANGE_TTL_MS = 24 * 60 * 60_000;

const UNKNOWN_LINK = 'This link is unknown, used or expired. Ask for a new one from Edit Profile.';
const TAKEN = 'Another account uses this email address';
const NOT_THIS_ACCOUNTS =
  'This link does not match your account’s email address any more. Ask for a new one from Edit Profile.';

export interface EmailChange {
  /**
   * Mails the new address a link that moves the account there; resolves once the mail is stored.
   * Nothing is reserved or changed until the link is followed. `client` is the caller's address.
   */
  request(userId: string, caller: Caller, email: string, client: string): Promise<void>;
  /** Follows such a link: `email` is the new address, from the link's fragment. */
  follow(token: string, email: string): Promise<VerifyEmailAnswer>;
}

/**
 * Changing an account's address (design section 7: an address is someone's once they followed a
 * link mailed to it). The link goes to the new address and carries it in its fragment; the store
 * keeps only the code's hash and a hash binding the code to the account's address at the time and
 * the new one, so no address sits in the credentials store, and a link whose account moved since,
 * or whose address was edited, does nothing.
 *
 * Following it takes steps in an order that a crash between any two leaves nothing wrong: reserve
 * the new address for the account (refused if another account holds it) and record it proved, move
 * the profile to it, free the old address, then end every link of the account (this one, and
 * every verification, reset and change link mailed before). Until the last step the link stays,
 * so following it again finishes the move: the account's state says where it stands (its address
 * is the new one and its previous address the link's old one).
 */
export function createEmailChange(deps: {
  accounts: Accounts;
  credentials: CredentialsStore;
  email: EmailSender;
  limiter: RateLimiter;
  publicBaseUrl: string;
  /** Names the new address's budget of mail. */
  lookupKeys: Pick<LookupKeys, 'email'>;
  clock: Clock;
}): EmailChange {
  const { accounts, credentials, email: mailer, limiter, publicBaseUrl, lookupKeys, clock } = deps;

  async function openAccount(uid: string) {
    const user = await accounts.profile(uid);
    if (!user || user.closed) throw new DomainError('not_found', 'User not found');
    return user;
  }

  return {
    async request(userId, caller, given, client) {
      if (caller.anonymous || caller.uid !== userId) {
        throw new DomainError('forbidden', 'You can only change your own email address');
      }
      const email = given.trim();
      if (!isValidEmailAddress(email)) throw authError(400, 'invalid-email');
      // The account's mail to this recipient, and the account's change links to any address.
      await limiter.attempt([
        ...accountMail(userId, lookupKeys.email(email), client),
        limitByAccount('account-mail', userId),
      ]);
      const user = await openAccount(userId);
      const holder = await accounts.reservationOf(email);
      if (holder && holder.userId !== userId) throw new HttpError(409, TAKEN);
      if (holder && sameEmailAddress(user.email, email)) {
        throw new HttpError(
          409,
          holder.verified
            ? 'This is your email address already'
            : 'This is your email address already: ask for a new verification link to confirm it',
        );
      }
      const token = newSecret();
      const now = clock().getTime();
      await credentials.addOneTimeCode(
        'email-change',
        sha256(token),
        { uid: userId, expiresAt: now + CHANGE_TTL_MS, addressHash: addressBinding(token, user.email, email) },
        now,
      );
      await mailer.sendEmail(
        renderMail({
          to: email,
          subject: 'Confirm your new email address',
          heading: 'Confirm your new email address',
          paragraphs: [
            'Someone asked to use this address for their QR Shirts account. Open this link to confirm that it is yours: the account then moves to it, and its old address is no longer used.',
          ],
          action: {
            label: 'Use this address',
            url: `${publicBaseUrl}/verify-email#${new URLSearchParams({ token, email }).toString()}`,
          },
          note: 'The link works once, within 24 hours. If you did not ask for this, ignore this email: nothing changes without it.',
        }),
      );
    },

    async follow(token, given) {
      const email = given.trim();
      if (!isValidEmailAddress(email)) throw authError(400, 'invalid-email');
      const codeHash = sha256(token);
      const code = await credentials.findOneTimeCode('email-change', codeHash, clock().getTime());
      if (!code) throw new HttpError(400, UNKNOWN_LINK);
      const refuse = async (error: Error): Promise<never> => {
        await credentials.takeOneTimeCode('email-change', codeHash, clock().getTime());
        throw error;
      };
      const { uid } = code;
      const user = await accounts.profile(uid);
      if (!user || user.closed) return refuse(new HttpError(400, UNKNOWN_LINK));
      // Not begun: the account has the address the link was asked from. Cut short: it moved, and
      // its previous address is that one.
      const from = boundTo(code, token, user.email, email)
        ? user.email
        : sameEmailAddress(user.email, email) && boundTo(code, token, user.previousEmail, email)
          ? user.previousEmail
          : undefined;
      if (from === undefined) return refuse(new HttpError(409, NOT_THIS_ACCOUNTS));
      if ((await accounts.reserveEmail(email, uid)) !== uid) return refuse(new HttpError(409, TAKEN));
      await accounts.verifyEmail(email, uid, 'link');
      await accounts.changeEmail(uid, email);
      if (from !== null && !sameEmailAddress(from, email)) await accounts.releaseEmail(from, uid);
      await endMailedLinks(credentials, uid);
      return { email, emailVerified: true, changed: true };
    },
  };
}
