import type { AuthSession } from '@qrshirt/contracts';
import type { Clock } from '../kit/clock';
import { DomainError } from '../kit/decider';
import type { CommandHandler } from '../kit/command-handler';
import type { LookupKeys } from '../kit/lookup-keys';
import { emailReservationDecider, type EmailReservationState, emailReservationStreamName } from './email-reservation';
import { type SignInMethod, type UserProfile, type UserState, userDecider, userStreamName } from './user-decider';

export interface Accounts {
  /** The user holding the address: the account that reserved it first. */
  emailHolder(email: string): Promise<string | null>;
  /** Who holds the address and whether they proved it is theirs; null while nobody does. */
  reservationOf(email: string): Promise<EmailReservationState>;
  /** Reserves the address for `uid` unless someone holds it; answers the holder. */
  reserveEmail(email: string, uid: string): Promise<string>;
  /**
   * Records a sign-in, registering the user first if their stream is empty: a new account, or
   * one whose registration was lost after its email was reserved (a crash in between).
   */
  signedIn(uid: string, method: SignInMethod, profile: UserProfile): Promise<UserState>;
  profile(uid: string): Promise<UserState | null>;
  /**
   * Registers the holder of `email` whose registration was lost after it reserved the address (a
   * failure or a crash in between), so that links mailed to the address can act for it; nothing
   * for a registered account.
   */
  registerHalfMade(uid: string, email: string): Promise<void>;
  /**
   * The account's address and whether it is verified: the profile's address counts only while
   * this account holds its reservation and proved it is theirs.
   */
  addressOf(uid: string): Promise<{ email: string | null; verified: boolean }>;
  /** Records that the holder of the address proved it is theirs (idempotent). */
  verifyEmail(email: string, uid: string, via: 'link' | 'google'): Promise<void>;
  /** Frees the address if `uid` holds it (idempotent; someone else's stays theirs). */
  releaseEmail(email: string, uid: string): Promise<void>;
  /** Changes the fields given (nothing when they are as they were). */
  updateProfile(uid: string, changes: Partial<Pick<UserProfile, 'displayName' | 'photoURL'>>): Promise<void>;
  /** Moves the account to an address it reserved and proved (idempotent). */
  changeEmail(uid: string, email: string): Promise<void>;
  /**
   * An operator names the account holding `email` an admin: only one that proved the address is
   * theirs, so that nobody squatting an address an operator names gets the rights.
   */
  grantAdmin(email: string): Promise<AdminGrant>;
}

export type AdminGrant =
  | { outcome: 'granted' | 'already'; userId: string }
  | { outcome: 'no-account' }
  | { outcome: 'unverified'; userId: string };

export function createAccounts({
  commands,
  clock,
  lookupKeys,
}: {
  commands: CommandHandler;
  clock: Clock;
  lookupKeys: Pick<LookupKeys, 'email'>;
}): Accounts {
  const now = () => clock().toISOString();
  const reservation = (email: string) => emailReservationStreamName(lookupKeys, email);
  const reservationOf = (email: string) => commands.loadState(reservation(email), emailReservationDecider);
  return {
    async emailHolder(email) {
      return (await reservationOf(email))?.userId ?? null;
    },
    reservationOf,
    async reserveEmail(email, uid) {
      const { state } = await commands.handle(reservation(email), emailReservationDecider, () => ({
        type: 'ReserveEmail',
        userId: uid,
        at: now(),
      }));
      return state!.userId;
    },
    async signedIn(uid, method, profile) {
      const { state } = await commands.handle(userStreamName(uid), userDecider, (current) =>
        current
          ? { type: 'RecordSignIn', userId: uid, method, at: now() }
          : { type: 'RegisterUser', userId: uid, method, ...profile, at: now() },
      );
      return state!;
    },
    profile(uid) {
      return commands.loadState(userStreamName(uid), userDecider);
    },
    async registerHalfMade(uid, email) {
      const register = () => ({
        type: 'RegisterUser' as const,
        userId: uid,
        method: 'password' as const,
        ...noProfile,
        email,
        at: now(),
      });
      await commands.handle(userStreamName(uid), userDecider, register).catch((error: unknown) => {
        // Registered meanwhile (its owner signed in): what it has stays.
        if (!(error instanceof DomainError && error.kind === 'conflict')) throw error;
      });
    },
    async addressOf(uid) {
      const email = (await commands.loadState(userStreamName(uid), userDecider))?.email ?? null;
      if (!email) return { email: null, verified: false };
      const reservation = await reservationOf(email);
      return { email, verified: reservation?.userId === uid && reservation.verified };
    },
    async updateProfile(uid, changes) {
      await commands.handle(userStreamName(uid), userDecider, () => ({
        type: 'UpdateProfile',
        userId: uid,
        ...changes,
        at: now(),
      }));
    },
    async releaseEmail(email, uid) {
      await commands.handle(reservation(email), emailReservationDecider, () => ({
        type: 'ReleaseEmail',
        userId: uid,
        at: now(),
      }));
    },
    async changeEmail(uid, email) {
      await commands.handle(userStreamName(uid), userDecider, () => ({
        type: 'ChangeEmail',
        userId: uid,
        email,
        at: now(),
      }));
    },
    async grantAdmin(email) {
      const holder = await reservationOf(email);
      if (!holder) return { outcome: 'no-account' };
      const { userId } = holder;
      if (!holder.verified) return { outcome: 'unverified', userId };
      const { events } = await commands.handle(userStreamName(userId), userDecider, () => ({
        type: 'GrantAdmin',
        userId,
        at: now(),
      }));
      return { outcome: events.length > 0 ? 'granted' : 'already', userId };
    },
    async verifyEmail(email, uid, via) {
      await commands.handle(reservation(email), emailReservationDecider, () => ({
        type: 'VerifyEmail',
        userId: uid,
        via,
        at: now(),
      }));
    },
  };
}

export const noProfile: UserProfile = { email: null, displayName: null, photoURL: null };

export function sessionUser(uid: string, anonymous: boolean, profile: UserProfile | null): AuthSession['user'] {
  const { email, displayName, photoURL } = profile ?? noProfile;
  return { uid, anonymous, email, displayName, photoURL };
}
