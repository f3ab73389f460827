import { type EmailLinkPreview, linkAskedBy, type VerifyEmailAnswer } from '@qrshirt/contracts';
import {
  type Accounts,
  type Caller,
  type Clock,
  type CredentialsStore,
  DomainError,
  endMailedLinks,
  isValidEmailAddress,
  type LookupKeys,
  type OneTimeCode,
  sameEmailAddress,
  type UserState,
} from '@qrshirt/core';
import { HttpError } from '../http/http-error';
import { renderMail } from '../mail/mail-templates';
import { addressBinding, boundTo } from './address-binding';
import { authError } from './auth-errors';
import type { EmailSender } from '../mail/message-senders';
import type { Identity } from './identity';
import { assertAskedBy, isAskedBy } from './link-asker';
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
  /**
   * Follows such a link: `email` is the new address, from the link's fragment; `caller` must be
   * the session of the account that asked for it (see link-asker.ts).
   */
  follow(token: string, email: string, caller: Identity | undefined): Promise<VerifyEmailAnswer>;
  /** What following the link would do, and for which account; it stays as it is. */
  preview(token: string, email: string, caller: Identity | undefined): Promise<EmailLinkPreview>;
}

/**
 * Changing an account's address (design section 7: an address is someone's once they followed a
 * link mailed to it). The link goes to the new address and carries it in its fragment; the store
 * keeps only the code's hash and a hash binding the code to the account's address at the time and
 * the new one, so no address sits in the credentials store, and a link whose account moved since,
 * or whose address was edited, does nothing.
 *
 * The mail names the account that asked, and following the link acts only with that account's
 * session: the new address's owner, who may not know that account, cannot be led to give it away.
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

  /** The link's code and new address, trimmed; 400 for a link that is unknown, used or expired. */
  async function findLink(token: string, given: string): Promise<{ code: OneTimeCode; email: string }> {
    const email = given.trim();
    if (!isValidEmailAddress(email)) throw authError(400, 'invalid-email');
    const code = await credentials.findOneTimeCode('email-change', sha256(token), clock().getTime());
    if (!code) throw new HttpError(400, UNKNOWN_LINK);
    return { code, email };
  }

  /**
   * The account the link moves and the address it moves it from, or why it cannot: not begun, the
   * account has the address the link was asked from; cut short, it moved, and its previous address
   * is that one.
   */
  async function movingAccount(
    code: OneTimeCode,
    token: string,
    email: string,
  ): Promise<{ user: UserState; from: string | null } | HttpError> {
    const user = await accounts.profile(code.uid);
    if (!user || user.closed) return new HttpError(400, UNKNOWN_LINK);
    if (boundTo(code, token, user.email, email)) return { user, from: user.email };
    if (sameEmailAddress(user.email, email) && boundTo(code, token, user.previousEmail, email)) {
      return { user, from: user.previousEmail };
    }
    return new HttpError(409, NOT_THIS_ACCOUNTS);
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
            `${linkAskedBy(user.displayName, 'this address')} on QR Shirts.`,
            'If that account is yours, open this link and confirm while signed in to it: the account then moves to this address, and its old address is no longer used.',
          ],
          action: {
            label: 'Use this address',
            url: `${publicBaseUrl}/verify-email#${new URLSearchParams({ token, email }).toString()}`,
          },
          note: 'The link works once, within 24 hours. If you did not ask for this, or that account is not yours, ignore this email: nothing changes without it.',
        }),
      );
    },

    async follow(token, given, caller) {
      const { code, email } = await findLink(token, given);
      const { uid } = code;
      assertAskedBy(uid, caller);
      const refuse = async (error: Error): Promise<never> => {
        await credentials.takeOneTimeCode('email-change', sha256(token), clock().getTime());
        throw error;
      };
      const moving = await movingAccount(code, token, email);
      if (moving instanceof HttpError) return refuse(moving);
      const { from } = moving;
      if ((await accounts.reserveEmail(email, uid)) !== uid) return refuse(new HttpError(409, TAKEN));
      await accounts.verifyEmail(email, uid, 'link');
      await accounts.changeEmail(uid, email);
      if (from !== null && !sameEmailAddress(from, email)) await accounts.releaseEmail(from, uid);
      await endMailedLinks(credentials, uid);
      return { email, emailVerified: true, changed: true };
    },

    async preview(token, given, caller) {
      const { code, email } = await findLink(token, given);
      const moving = await movingAccount(code, token, email);
      if (moving instanceof HttpError) throw moving;
      return { email, displayName: moving.user.displayName, change: true, yours: isAskedBy(code.uid, caller) };
    },
  };
}
