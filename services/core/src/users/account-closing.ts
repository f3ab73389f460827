import { userDataSubject } from '@qrshirt/contracts';
import type { Caller } from '../kit/caller';
import type { Clock } from '../kit/clock';
import type { CommandHandler } from '../kit/command-handler';
import { DomainError } from '../kit/decider';
import type { LookupKeys } from '../kit/lookup-keys';
import type { CredentialsStore } from '../ports/credentials-store';
import type { ErasureAct } from '../ports/personal-data-keys';
import { emailReservationDecider, emailReservationStreamName } from './email-reservation';
import { endMailedLinks } from './mailed-links';
import { userDecider, type UserState, userStreamName } from './user-decider';

/** How recent a sign-in must be to close an account that has no password to confirm it with. */
const RECENT_SIGN_IN_MS = 5 * 60_000;

interface AccountClosing {
  /** The person closes their own account, proving it is them (`password`, or a recent sign-in). */
  closeOwn(userId: string, caller: Caller, proof: { password?: string }): Promise<void>;
  /** An operator erases a person; the log records who. */
  eraseByAdmin(userId: string, adminId: string): Promise<void>;
}

/**
 * Closing an account: the closure is recorded first, then every trace is removed: sessions,
 * password, linked identities, mailed links, the address's reservation (free for a new account),
 * the waitlist signups and donors' receipt addresses made with it, and the key, which erases the
 * person's name and email everywhere at once. Each removal can be done again, so a request that
 * stopped half-way is finished by the next one, which then answers 404.
 */
export function createAccountClosing({
  commands,
  credentials,
  personalData,
  forgetMailTo,
  removeWaitlistEntriesMadeWith,
  eraseReceiptAddresses,
  confirmPassword,
  lookupKeys,
  clock,
}: {
  commands: CommandHandler;
  credentials: CredentialsStore;
  /** Destroys the subject's key, which erases their name and email wherever they went sealed. */
  personalData: { erase(this: void, subject: string, act?: ErasureAct): Promise<unknown> };
  /** Forgets the mail to an address: waiting and kept after sending alike. */
  forgetMailTo(this: void, address: string): Promise<unknown>;
  /** Removes and erases the waitlist entries made with an address. */
  removeWaitlistEntriesMadeWith(this: void, address: string): Promise<void>;
  /** Erases an address wherever donations' receipts were to go to it. */
  eraseReceiptAddresses(this: void, address: string): Promise<void>;
  /** Refuses a password that is not the one `stored` hashes; how passwords are hashed is sign-in's. */
  confirmPassword(this: void, password: string, stored: string): Promise<void>;
  /** Names the reservation of an address the account holds. */
  lookupKeys: Pick<LookupKeys, 'email'>;
  clock: Clock;
}): AccountClosing {
  const now = () => clock().toISOString();

  async function removeTraces(userId: string, user: UserState, closing: ErasureAct): Promise<void> {
    // The access tokens too, at once: the read model that tells they name a closed account lags.
    await credentials.endSessionsOf(userId, clock().getTime());
    await credentials.deletePasswordHash(userId);
    await credentials.deleteIdentitiesOf(userId);
    await endMailedLinks(credentials, userId);
    // The account's address, and the one it was moving away from if that move was cut short.
    for (const email of new Set([user.email, user.previousEmail])) {
      if (email) await releaseAddress(userId, email);
    }
    await personalData.erase(userDataSubject(userId), closing);
  }

  /**
   * Only an address the account holds is its person's: its mail went there because of them, and
   * any other may be a stranger's. It is readable only until the key goes, so this runs first; a
   * repeated request finds it released, with its mail forgotten and its signups removed already.
   */
  async function releaseAddress(userId: string, email: string): Promise<void> {
    const reservation = emailReservationStreamName(lookupKeys, email);
    const holder = await commands.loadState(reservation, emailReservationDecider);
    if (holder?.userId !== userId) return;
    await forgetMailTo(email);
    // Signups and donations made with an address the person proved theirs are theirs too; with one
    // they never proved, they may be someone else's. Read before the release, which forgets who verified.
    if (holder.verified) {
      await removeWaitlistEntriesMadeWith(email);
      await eraseReceiptAddresses(email);
    }
    await commands.handle(reservation, emailReservationDecider, () => ({
      type: 'ReleaseEmail',
      userId,
      at: now(),
    }));
  }

  async function close(userId: string, by: 'self' | 'admin', adminId?: string): Promise<void> {
    const user = await commands.loadState(userStreamName(userId), userDecider);
    // What the erasure journal keeps for a restore; a request finishing one cut short keeps its own.
    const closing = { userId, by, ...(adminId && { adminId }), at: now() };
    let closedBefore: DomainError | undefined;
    try {
      await commands.handle(userStreamName(userId), userDecider, () => ({ type: 'CloseAccount', ...closing }));
    } catch (error) {
      if (!(error instanceof DomainError && error.kind === 'not_found')) throw error;
      closedBefore = error;
    }
    if (user) await removeTraces(userId, user, { type: 'UserAccountClosed', data: closing });
    if (closedBefore) throw closedBefore;
  }

  return {
    async closeOwn(userId, caller, { password }) {
      if (caller.anonymous || caller.uid !== userId) {
        throw new DomainError('forbidden', 'You can only close your own account');
      }
      const user = await commands.loadState(userStreamName(userId), userDecider);
      if (!user || user.closed) throw new DomainError('not_found', 'User not found');
      const stored = await credentials.passwordHash(userId);
      if (stored) {
        // 403 rather than 400: the body is well formed, it only lacks the proof this account needs.
        if (password === undefined) throw new DomainError('forbidden', 'Enter your password to close your account');
        await confirmPassword(password, stored);
      } else if (clock().getTime() - Date.parse(user.lastSignInAt) > RECENT_SIGN_IN_MS) {
        throw new DomainError('forbidden', 'Sign in again, then close your account within 5 minutes');
      }
      await close(userId, 'self');
    },
    eraseByAdmin: (userId, adminId) => close(userId, 'admin', adminId),
  };
}
