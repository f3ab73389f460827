import { MIN_PASSWORD_LENGTH, refreshRequest, signInRequest, signUpRequest } from '@qrshirt/contracts';
import { emailKey, isValidEmailAddress } from '@qrshirt/core';
import { Router } from 'express';
import passport from 'passport';
import { createAccounts } from '../auth/accounts';
import { authError } from '../auth/auth-errors';
import type { AuthOptions } from '../auth/auth-options';
import { createEmailVerification } from '../auth/email-verification';
import { createLocalStrategy } from '../auth/local-strategy';
import { hashPassword } from '../auth/passwords';
import { runStrategy } from '../auth/run-strategy';
import { createSessions } from '../auth/sessions';
import { HttpError } from '../http/http-error';
import { parseInput } from '../http/validate';
import { type AuthContext, limitByAccount, limitByIp } from './auth-context';
import { googleAuthRoutes } from './auth-google';
import { passwordResetRoutes } from './auth-password-reset';
import { phoneAuthRoutes } from './auth-phone';
import { verifyEmailRoutes } from './auth-verify-email';
import type { RouteDeps } from './route-deps';

/** Every `/api/auth/*` route, with the accounts and sessions they share. */
export function authRoutes(deps: RouteDeps & { auth: AuthOptions }): Router {
  const accounts = createAccounts(deps);
  const sessions = createSessions({ ...deps.auth, accounts, clock: deps.clock });
  // An instance of its own rather than passport's global one: each app gets its own strategies.
  const authenticator = new passport.Passport();
  authenticator.use('local', createLocalStrategy({ accounts, credentials: deps.auth.credentials }));
  const verification = createEmailVerification({ ...deps, ...deps.auth, accounts });
  const context: AuthContext = { ...deps, ...deps.auth, accounts, sessions, passport: authenticator, verification };
  return Router()
    .use(emailPasswordRoutes(context))
    .use(googleAuthRoutes(context))
    .use(phoneAuthRoutes(context))
    .use(passwordResetRoutes(context))
    .use(verifyEmailRoutes(context));
}

function emailPasswordRoutes(context: AuthContext): Router {
  const { accounts, sessions, credentials, limiter, newId, passport, verification } = context;
  return Router()
    .post('/api/auth/signup', async (req, res) => {
      const input = parseInput(signUpRequest, req.body);
      const email = input.email.trim();
      // Per client address only, not per email: a limit per email would protect nothing (someone
      // testing which emails are taken tries each once) and would answer 429 instead of the
      // truth to whoever signs up with one email many times at once. Successes count too: one
      // address must not open unlimited accounts.
      await limiter.attempt([limitByIp('signup', req)]);
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
      res.status(201).json(await sessions.start({ uid, anonymous: false }, user));
    })
    .post('/api/auth/signin', async (req, res) => {
      const input = parseInput(signInRequest, req.body);
      const email = input.email.trim();
      if (!isValidEmailAddress(email)) throw authError(400, 'invalid-email');
      const limits = [limitByIp('signin', req), limitByAccount('signin', emailKey(email))];
      await limiter.attempt(limits);
      const { user } = await runStrategy(passport, 'local', req, res);
      // One answer whether the email has no account (user-not-found) or the password is wrong
      // (wrong-password): telling them apart would let anyone test which emails are registered.
      if (!user) throw authError(401, 'invalid-credential');
      await limiter.forgive(limits);
      const state = await accounts.signedIn(user.uid, 'password', { email, displayName: null, photoURL: null });
      res.json(await sessions.start(user, state));
    })
    .post('/api/auth/anonymous', async (req, res) => {
      await limiter.attempt([limitByIp('anonymous', req)]);
      // No user stream for anonymous sessions: they read and record scans, donations and
      // waitlist entries, none of which needs a stored user, and every first visit makes one.
      res.json(await sessions.start({ uid: newId(), anonymous: true }, null));
    })
    .post('/api/auth/refresh', async (req, res) => {
      const { refreshToken } = parseInput(refreshRequest, req.body);
      const session = await sessions.refresh(refreshToken);
      if (!session) throw new HttpError(401, 'Your session has ended. Please sign in again.');
      res.json(session);
    })
    .post('/api/auth/signout', async (req, res) => {
      const { refreshToken } = parseInput(refreshRequest, req.body);
      await sessions.end(refreshToken);
      res.status(204).end();
    });
}
