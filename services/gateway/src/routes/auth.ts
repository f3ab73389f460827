import { MIN_PASSWORD_LENGTH } from '@qrshirt/contracts';
import { emailKey, isValidEmailAddress } from '@qrshirt/core';
import passport from 'passport';
import { createAccounts } from '../auth/accounts';
import { authError } from '../auth/auth-errors';
import type { AuthOptions } from '../auth/auth-options';
import { createEmailVerification } from '../auth/email-verification';
import { createGoogleExchange } from '../auth/google-exchange';
import { createGoogleAccounts, createGoogleStrategy } from '../auth/google-sign-in';
import { createLocalStrategy } from '../auth/local-strategy';
import { createPasswordReset } from '../auth/password-reset';
import { hashPassword } from '../auth/passwords';
import { createPhoneSignIn } from '../auth/phone-sign-in';
import { limitByAccount, limitByIp } from '../auth/rate-limiter';
import { runStrategy } from '../auth/run-strategy';
import { createSessions } from '../auth/sessions';
import { HttpError } from '../http/http-error';
import type { Handlers } from '../http/route-table';
import { type AuthContext, clientAddress } from './auth-context';
import { googleHandlers } from './auth-google';
import { passwordResetHandlers } from './auth-password-reset';
import { phoneHandlers } from './auth-phone';
import { verifyEmailHandlers } from './auth-verify-email';
import type { RouteDeps } from './route-deps';

type AuthOperation =
  | 'signUp'
  | 'signIn'
  | 'startAnonymousSession'
  | 'refreshSession'
  | 'signOut'
  | 'startGoogleSignIn'
  | 'googleCallback'
  | 'exchangeGoogleCode'
  | 'startPhoneSignIn'
  | 'confirmPhoneSignIn'
  | 'requestPasswordReset'
  | 'confirmPasswordReset'
  | 'verifyEmail'
  | 'resendVerification';

/** Every `/api/auth/*` route, with the accounts and sessions they share. */
export function authHandlers(deps: RouteDeps & { auth: AuthOptions }): Pick<Handlers, AuthOperation> {
  const accounts = createAccounts(deps);
  const sessions = createSessions({ ...deps.auth, accounts, clock: deps.clock });
  // An instance of its own rather than passport's global one: each app gets its own strategies.
  const authenticator = new passport.Passport();
  authenticator.use('local', createLocalStrategy({ accounts, credentials: deps.auth.credentials }));
  const { google } = deps.auth;
  if (google) {
    authenticator.use(
      'google',
      createGoogleStrategy(google, createGoogleAccounts({ ...deps, ...deps.auth, accounts })),
    );
  }
  const verification = createEmailVerification({ ...deps, ...deps.auth, accounts });
  const context: AuthContext = {
    ...deps,
    ...deps.auth,
    accounts,
    sessions,
    passport: authenticator,
    verification,
    passwordReset: createPasswordReset({ ...deps, ...deps.auth, accounts }),
    googleExchange: createGoogleExchange({ ...deps, ...deps.auth, accounts, sessions }),
    googleSignIn: google !== undefined,
    phone: deps.auth.phoneSignIn ? createPhoneSignIn({ ...deps, ...deps.auth, accounts, sessions }) : undefined,
  };
  return {
    ...emailPasswordHandlers(context),
    ...googleHandlers(context),
    ...phoneHandlers(context),
    ...passwordResetHandlers(context),
    ...verifyEmailHandlers(context),
  };
}

function emailPasswordHandlers(
  context: AuthContext,
): Pick<Handlers, 'signUp' | 'signIn' | 'startAnonymousSession' | 'refreshSession' | 'signOut'> {
  const { accounts, sessions, credentials, limiter, newId, passport, verification } = context;
  return {
    async signUp({ body: input, req }) {
      const email = input.email.trim();
      // Per client address only, not per email: a limit per email would protect nothing (someone
      // testing which emails are taken tries each once) and would answer 429 instead of the
      // truth to whoever signs up with one email many times at once. Successes count too: one
      // address must not open unlimited accounts.
      await limiter.attempt([limitByIp('signup', clientAddress(req))]);
      if (!isValidEmailAddress(email)) throw authError(400, 'invalid-email');
      if (input.password.length < MIN_PASSWORD_LENGTH) throw authError(400, 'weak-password');
      const uid = newId();
      // The event store decides who gets the address (see email-reservation.ts). Reserved before
      // hashing, so a taken address costs no hashing; should the process die before the hash is
      // stored, the owner of the address sets a password through a reset link.
      if ((await accounts.reserveEmail(email, uid)) !== uid) throw authError(409, 'email-already-in-use');
      await credentials.setPasswordHash(uid, await hashPassword(input.password));
      const user = await accounts.signedIn(uid, 'password', {
        email,
        displayName: input.displayName.trim() || null,
        photoURL: null,
      });
      // The account stands without the mail: a link that could not be stored is asked for again
      // from the dashboard's banner.
      await verification.sendLink(uid, email).catch((error: unknown) => {
        req.log.error({ err: error }, 'verification link not stored');
      });
      return { status: 201, body: await sessions.start({ uid, anonymous: false }, user) };
    },
    async signIn({ body: input, req, res }) {
      const email = input.email.trim();
      if (!isValidEmailAddress(email)) throw authError(400, 'invalid-email');
      const limits = [limitByIp('signin', clientAddress(req)), limitByAccount('signin', emailKey(email))];
      await limiter.attempt(limits);
      const { user } = await runStrategy(passport, 'local', req, res);
      // One answer whether the email has no account (user-not-found) or the password is wrong
      // (wrong-password): telling them apart would let anyone test which emails are registered.
      if (!user) throw authError(401, 'invalid-credential');
      await limiter.forgive(limits);
      const state = await accounts.signedIn(user.uid, 'password', { email, displayName: null, photoURL: null });
      return { status: 200, body: await sessions.start(user, state) };
    },
    async startAnonymousSession({ req }) {
      await limiter.attempt([limitByIp('anonymous', clientAddress(req))]);
      // No user stream for anonymous sessions: they read and record scans, donations and
      // waitlist entries, none of which needs a stored user, and every first visit makes one.
      return { status: 200, body: await sessions.start({ uid: newId(), anonymous: true }, null) };
    },
    async refreshSession({ body: { refreshToken } }) {
      const session = await sessions.refresh(refreshToken);
      if (!session) throw new HttpError(401, 'Your session has ended. Please sign in again.');
      return { status: 200, body: session };
    },
    async signOut({ body: { refreshToken } }) {
      await sessions.end(refreshToken);
      return { status: 204 };
    },
  };
}
