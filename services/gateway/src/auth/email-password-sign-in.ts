import { isTooShortPassword, type SignUpRequest } from '@qrshirt/contracts';
import { type Accounts, type CredentialsStore, isValidEmailAddress, type LookupKeys } from '@qrshirt/core';
import type { Logger } from 'pino';
import { HttpError } from '../http/http-error';
import { authError } from './auth-errors';
import type { EmailVerification } from './email-verification';
import type { Identity } from './identity';
import { type PasswordHasher, verifyPassword } from './passwords';
import { limitByIp, type RateLimiter, signInWithPassword } from './rate-limiter';
import type { IssuedSession, Sessions } from './sessions';

interface EmailPasswordSignInDeps {
  accounts: Accounts;
  sessions: Sessions;
  credentials: CredentialsStore;
  passwords: PasswordHasher;
  limiter: RateLimiter;
  verification: EmailVerification;
  /** Names the address's sign-in budget. */
  lookupKeys: Pick<LookupKeys, 'email'>;
  newId: () => string;
}

/**
 * Accounts with an email and a password, anonymous sessions, and what every session can do:
 * refresh and end, one or all of an account's. `client` is always the caller's address, which
 * rate limits count by.
 */
export function createEmailPasswordSignIn(deps: EmailPasswordSignInDeps) {
  const { accounts, sessions, credentials, passwords, limiter, verification, lookupKeys, newId } = deps;

  /**
   * The account a sign-up completes: one holding the address that was never registered (its
   * sign-up stopped after the reservation) and has this password, so that the same sign-up retried
   * gets past whichever write failed. Null when nobody holds the address; 409 when someone does.
   */
  async function halfMadeAccount(email: string, password: string): Promise<string | null> {
    const holder = await accounts.emailHolder(email);
    if (holder === null) return null;
    // A registered account's address costs no hashing.
    const hash = (await accounts.profile(holder)) ? null : await credentials.passwordHash(holder);
    if (hash === null || !(await verifyPassword(password, hash))) throw authError(409, 'email-already-in-use');
    return holder;
  }

  /**
   * A new account's id, in writes a retry of the same sign-up gets past (halfMadeAccount): the
   * password under a new id, so stopped after it nothing is taken, then the address, which the
   * event store gives to one account (email-reservation.ts).
   */
  async function newAccount(email: string, password: string): Promise<string> {
    const uid = newId();
    await credentials.setPasswordHash(uid, await passwords.hash(password));
    if ((await accounts.reserveEmail(email, uid)) === uid) return uid;
    await credentials.deletePasswordHash(uid);
    // Taken meanwhile, maybe by this same sign-up sent twice at once, which then shares the account.
    const twin = await halfMadeAccount(email, password);
    if (twin === null) throw authError(409, 'email-already-in-use');
    return twin;
  }

  return {
    /** A new account, signed in; `log` is the request's, for a verification link that could not be stored. */
    async signUp(input: SignUpRequest, client: string, log: Logger): Promise<IssuedSession> {
      const email = input.email.trim();
      // Per client address only, not per email: a limit per email would protect nothing (someone
      // testing which emails are taken tries each once) and would answer 429 instead of the
      // truth to whoever signs up with one email many times at once. Successes count too: one
      // address must not open unlimited accounts.
      await limiter.attempt([limitByIp('signup', client)]);
      if (!isValidEmailAddress(email)) throw authError(400, 'invalid-email');
      if (isTooShortPassword(input.password)) throw authError(400, 'weak-password');
      const uid = (await halfMadeAccount(email, input.password)) ?? (await newAccount(email, input.password));
      const user = await accounts.signedIn(uid, 'password', {
        email,
        displayName: input.displayName.trim() || null,
        photoURL: null,
      });
      // The account stands without the mail: a link that could not be stored is asked for again
      // from the dashboard's banner.
      await verification.sendLink(uid, email).catch((error: unknown) => {
        log.error({ err: error }, 'verification link not stored');
      });
      return sessions.start({ uid, anonymous: false }, user);
    },

    /**
     * Checks the address and the limits, then the credentials: `checkCredentials` answers the
     * account whose email and password they are, or false.
     */
    async signIn(
      givenEmail: string,
      client: string,
      checkCredentials: () => Promise<Identity | false>,
    ): Promise<IssuedSession> {
      const email = givenEmail.trim();
      if (!isValidEmailAddress(email)) throw authError(400, 'invalid-email');
      const limits = signInWithPassword(lookupKeys.email(email), client);
      await limiter.attempt(limits);
      const user = await checkCredentials();
      // One answer whether the email has no account (user-not-found) or the password is wrong
      // (wrong-password): telling them apart would let anyone test which emails are registered.
      if (!user) throw authError(401, 'invalid-credential');
      await limiter.forgive(limits);
      const state = await accounts.signedIn(user.uid, 'password', { email, displayName: null, photoURL: null });
      return sessions.start(user, state);
    },

    async anonymous(client: string): Promise<IssuedSession> {
      await limiter.attempt([limitByIp('anonymous', client)]);
      // No user stream for anonymous sessions: they read and record scans, donations and
      // waitlist entries, none of which needs a stored user, and every first visit makes one.
      return sessions.start({ uid: newId(), anonymous: true }, null);
    },

    /** `refreshToken` is the cookie's, absent when the browser holds none. */
    async refresh(refreshToken: string | undefined): Promise<IssuedSession> {
      if (refreshToken === undefined) throw new HttpError(401, 'No session to refresh. Please sign in.');
      const session = await sessions.refresh(refreshToken);
      if (!session) throw new HttpError(401, 'Your session has ended. Please sign in again.');
      return session;
    },

    async signOut(refreshToken: string | undefined): Promise<void> {
      if (refreshToken !== undefined) await sessions.end(refreshToken);
    },

    /** Ends every session of the signed-in account, this one too (a lost phone, a shared computer). */
    signOutEverywhere(caller: Identity): Promise<void> {
      return sessions.endAll(caller.uid);
    },
  };
}
export type EmailPasswordSignIn = ReturnType<typeof createEmailPasswordSignIn>;
