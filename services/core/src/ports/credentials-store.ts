import type { DailySalts } from './daily-salts';
import type { PersonalDataKeys } from './personal-data-keys';
import type { SpentChallenges } from './spent-challenges';

/**
 * Secrets that never go into events: password hashes, refresh-token hashes, one-time codes,
 * phone verifications, which external identity (Google account, phone number) is which user,
 * the salt of the day that scan visitors are hashed with (`DailySalts`), and the proof-of-work
 * challenges already solved (`SpentChallenges`).
 * Every adapter passes `credentials-store.contract.ts`. Times are epoch milliseconds passed in by
 * the caller, whose clock decides what has expired; expired records are cleared away by the
 * adapter in its own way. Several gateway processes share one store.
 */
/**
 * A signed-in session lasts at most this long in all, however often it is refreshed: a stolen
 * refresh token kept in use cannot keep a session alive for ever.
 */
export const MAX_SESSION_MS = 90 * 24 * 60 * 60_000;

/**
 * How long the token a rotation replaced still rotates: a browser that leaves a page while its
 * refresh is in flight never receives the new cookie, and the next page presents the old one. Past
 * this, or for any older token, a presented token is a stolen copy.
 */
export const REFRESH_REUSE_GRACE_MS = 30_000;

export interface CredentialsStore extends DailySalts, PersonalDataKeys, SpentChallenges {
  setPasswordHash(uid: string, hash: string): Promise<void>;
  passwordHash(uid: string): Promise<string | null>;
  /** The account can no longer sign in with a password (until one is set again). */
  deletePasswordHash(uid: string): Promise<void>;

  /**
   * A signed-in session on one device: one refresh token at a time, replaced at every refresh.
   * `endsAt`: no rotation extends it past this.
   */
  createRefreshFamily(
    family: string,
    session: RefreshSession & { tokenHash: string; endsAt: number },
    now: number,
  ): Promise<void>;
  /**
   * Swaps the family's token for the next one if `tokenHash` is its current token, atomically, or
   * the one the last rotation replaced, within REFRESH_REUSE_GRACE_MS of that rotation (the grace
   * does not slide: rotating again keeps the time of the first). Any other token the family had
   * before (a stolen copy, or the thief's copy after the owner refreshed) ends the family. The next
   * expiry is capped at the family's end (families stored before there was one end MAX_SESSION_MS
   * after their first rotation since).
   */
  rotateRefreshToken(
    family: string,
    tokenHash: string,
    next: { tokenHash: string; expiresAt: number },
    now: number,
  ): Promise<RefreshRotation>;
  deleteRefreshFamily(family: string): Promise<void>;
  /**
   * Ends every session of `uid` at once (a password reset, signing out everywhere, closing the
   * account): deletes its refresh families and records `at` as the time its access tokens must
   * be younger than. A later time replaces an earlier one, never the reverse.
   */
  endSessionsOf(uid: string, at: number): Promise<void>;
  /** The time `endSessionsOf` last recorded for `uid`; null if it never ended its sessions. */
  sessionsValidAfter(uid: string): Promise<number | null>;

  /**
   * Short-lived single-use codes (password reset, verification and address change links, Google
   * sign-in hand-overs), by hash. `addressHash` binds a mailed link to the address it was mailed to.
   */
  addOneTimeCode(
    purpose: OneTimeCodePurpose,
    codeHash: string,
    code: { uid: string; expiresAt: number; addressHash?: string },
    now: number,
  ): Promise<void>;
  /** The code, removing it; null when unknown, used or expired. */
  takeOneTimeCode(purpose: OneTimeCodePurpose, codeHash: string, now: number): Promise<OneTimeCode | null>;
  /**
   * The code, leaving it in place; null when unknown, used or expired. A link whose work takes
   * several steps is taken after the last, so following it again after a crash finishes the work.
   */
  findOneTimeCode(purpose: OneTimeCodePurpose, codeHash: string, now: number): Promise<OneTimeCode | null>;
  /** Removes every code of `uid`, whatever its purpose: links mailed before stop working. */
  deleteOneTimeCodesOf(uid: string): Promise<void>;

  addPhoneVerification(verification: PhoneVerification, now: number): Promise<void>;
  /** Counts one try and answers the verification; null when unknown or out of tries. */
  tryPhoneVerification(id: string, maxTries: number): Promise<PhoneVerification | null>;
  /** True for the one caller that removed it, so a code signs in once. */
  deletePhoneVerification(id: string): Promise<boolean>;

  /** Links the identity to `uid` unless it is linked already; answers the user it is linked to. */
  linkIdentity(provider: IdentityProvider, subject: string, uid: string): Promise<string>;
  findIdentity(provider: IdentityProvider, subject: string): Promise<string | null>;
  /** The identities linked to `uid`, for its person's data export; in no particular order. */
  identitiesOf(uid: string): Promise<{ provider: IdentityProvider; subject: string }[]>;
  /** Unlinks every identity linked to `uid` (its account was closed): they can sign up anew. */
  deleteIdentitiesOf(uid: string): Promise<void>;
  /**
   * Gives every phone identity, and every phone verification under way, the subject `rename`
   * answers for its own, keeping its user (none where it answers null): `npm run
   * migrate-lookup-keys`, with the product stopped. Answers how many it changed, so a second call
   * answers 0. Throws, changing nothing more, when a new subject is someone else's already.
   */
  renamePhoneSubjects(rename: (subject: string) => string | null): Promise<number>;

  close(): Promise<void>;
}

export interface RefreshSession {
  uid: string;
  anonymous: boolean;
  expiresAt: number;
}

export type RefreshRotation =
  { outcome: 'rotated'; session: RefreshSession } | { outcome: 'reused' } | { outcome: 'invalid' };

export type OneTimeCodePurpose = 'password-reset' | 'google-exchange' | 'email-verification' | 'email-change';

export interface OneTimeCode {
  uid: string;
  /**
   * What the code was bound to when stored (a hash of the link's secret with the addresses it was
   * mailed for); null for a code stored without one (a Google hand-over, or a link stored before
   * links were bound to their address).
   */
  addressHash: string | null;
}

export type IdentityProvider = 'google' | 'phone';

export interface PhoneVerification {
  id: string;
  /** The number's lookup key: the store never holds the number itself. */
  phoneKey: string;
  codeHash: string;
  expiresAt: number;
  tries: number;
}
