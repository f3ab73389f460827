import { REFRESH_COOKIE, type authRoutes, type emailPasswordRoutes, type userRoutes } from '@qrshirt/contracts';
import passport from 'passport';
import { accountHandlers } from './account-routes';
import type { AuthOptions } from './auth-options';
import { createEmailPasswordSignIn } from './email-password-sign-in';
import { createEmailChange } from './email-change';
import { createEmailVerification } from './email-verification';
import { createGoogleExchange } from './google-exchange';
import { createGoogleAccounts, createGoogleStrategy } from './google-sign-in';
import { createLocalStrategy } from './local-strategy';
import { createPasswordReset } from './password-reset';
import { createPhoneSignIn } from './phone-sign-in';
import { clearRefreshCookie, sessionAnswer } from './refresh-cookie';
import { runStrategy } from './run-strategy';
import { createSessions } from './sessions';
import { HttpError } from '../http/http-error';
import type { HandlersOf } from '../http/route-table';
import { clientAddress } from '../http/client-limits';
import type { AuthContext } from './auth-context';
import { googleHandlers } from './auth-google';
import { passwordResetHandlers } from './auth-password-reset';
import { phoneHandlers } from './auth-phone';
import { verifyEmailHandlers } from './auth-verify-email';
import type { RouteDeps } from '../route-deps';

/**
 * Every `/api/auth/*` route, and the move to another address, with the use cases they call, made
 * once over shared accounts and sessions.
 */
export function authHandlers(
  deps: RouteDeps & { auth: AuthOptions },
): HandlersOf<typeof authRoutes & Pick<typeof userRoutes, 'changeEmail'>> {
  const sessions = createSessions({ ...deps.auth, accounts: deps.accounts, clock: deps.clock });
  const shared = { ...deps, ...deps.auth, accounts: deps.accounts, sessions };
  // An instance of its own rather than passport's global one: each app gets its own strategies.
  const authenticator = new passport.Passport();
  authenticator.use('local', createLocalStrategy(shared));
  const { google, phoneSignIn, anonymousSignIn } = deps.auth;
  if (google) authenticator.use('google', createGoogleStrategy(google, createGoogleAccounts(shared)));
  const emailChange = createEmailChange(shared);
  const verification = createEmailVerification({ ...shared, emailChange });
  const context: AuthContext = {
    passport: authenticator,
    emailPassword: createEmailPasswordSignIn({ ...shared, verification }),
    verification,
    passwordReset: createPasswordReset(shared),
    phone: phoneSignIn ? createPhoneSignIn(shared) : undefined,
    googleExchange: createGoogleExchange(shared),
    googleSignIn: google !== undefined,
    anonymousSignIn,
  };
  return {
    ...emailPasswordHandlers(context),
    ...googleHandlers(context),
    ...phoneHandlers(context),
    ...passwordResetHandlers(context),
    ...verifyEmailHandlers(context),
    ...accountHandlers({ emailChange }),
  };
}

function emailPasswordHandlers({
  emailPassword,
  passport,
  anonymousSignIn,
}: AuthContext): HandlersOf<typeof emailPasswordRoutes> {
  return {
    async signUp({ body, req, res }) {
      return { status: 201, body: sessionAnswer(res, await emailPassword.signUp(body, clientAddress(req), req.log)) };
    },
    async signIn({ body, req, res }) {
      // passport-local reads the email and password from the request itself, so the use case is
      // handed the strategy's run on this request, to make after its own checks and limits.
      const checkCredentials = async () => (await runStrategy(passport, 'local', req, res)).user;
      const issued = await emailPassword.signIn(body.email, clientAddress(req), checkCredentials);
      return { status: 200, body: sessionAnswer(res, issued) };
    },
    async startAnonymousSession({ req, res }) {
      // A choice of the operator, not a fault: the web client, told so by its page, never asks.
      if (!anonymousSignIn) throw new HttpError(403, 'Anonymous sign-in is turned off on this site');
      return { status: 200, body: sessionAnswer(res, await emailPassword.anonymous(clientAddress(req))) };
    },
    async refreshSession({ cookies, res }) {
      return { status: 200, body: sessionAnswer(res, await emailPassword.refresh(cookies[REFRESH_COOKIE])) };
    },
    async signOut({ cookies, res }) {
      await emailPassword.signOut(cookies[REFRESH_COOKIE]);
      clearRefreshCookie(res);
      return { status: 204 };
    },
    async signOutEverywhere({ user, res }) {
      await emailPassword.signOutEverywhere(user);
      clearRefreshCookie(res);
      return { status: 204 };
    },
  };
}
