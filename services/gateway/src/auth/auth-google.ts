import type { googleSignInRoutes } from '@qrshirt/contracts';
import type { Request, RequestHandler, Response } from 'express';
import { signInPageError } from './google-exchange';
import { asError, runStrategy, type StrategyOutcome } from './run-strategy';
import { sessionAnswer } from './refresh-cookie';
import { newSecret } from './secrets';
import { readCookie } from '../http/cookies';
import { type HandlersOf, unavailable } from '../http/route-table';
import type { AuthContext } from './auth-context';

/**
 * Binds the exchange code to the browser that started the sign-in: a link carrying someone else's
 * code (sent to a victim, or leaked from a history) signs nobody in without this browser's cookie.
 * Its path covers both /api/auth/google/callback and /api/auth/exchange.
 */
const BROWSER_COOKIE = 'qr_google_browser';
const BROWSER_COOKIE_PATH = '/api/auth';
const BROWSER_COOKIE_MAX_AGE_MS = 10 * 60_000;

function bindBrowser(req: Request, res: Response): void {
  res.cookie(BROWSER_COOKIE, newSecret(), {
    httpOnly: true,
    sameSite: 'lax',
    secure: req.secure,
    path: BROWSER_COOKIE_PATH,
    maxAge: BROWSER_COOKIE_MAX_AGE_MS,
  });
}

const notConfigured = unavailable('Google sign-in is not configured');

/**
 * Google's authorization-code flow (see google-exchange.ts). Starting it and running Google's
 * strategy stay here, as does the browser binding's cookie: passport drives the flow through the
 * request and the response (the redirect to Google, the state cookie, the callback's query).
 */
export function googleHandlers({
  passport,
  googleSignIn,
  googleExchange,
}: AuthContext): HandlersOf<typeof googleSignInRoutes> {
  const exchangeGoogleCode: HandlersOf<typeof googleSignInRoutes>['exchangeGoogleCode'] = async ({
    body: { code },
    req,
    res,
  }) => {
    const issued = await googleExchange.exchange(code, readCookie(req, BROWSER_COOKIE));
    res.clearCookie(BROWSER_COOKIE, { path: BROWSER_COOKIE_PATH });
    return { status: 200, body: sessionAnswer(res, issued) };
  };
  if (!googleSignIn) {
    return {
      exchangeGoogleCode,
      startGoogleSignIn: notConfigured,
      googleCallback: notConfigured,
    };
  }

  const redirectToGoogle = passport.authenticate('google', { session: false }) as RequestHandler;
  return {
    exchangeGoogleCode,
    startGoogleSignIn({ req, res }) {
      bindBrowser(req, res);
      return new Promise<void>((resolve, reject) => {
        // passport answers with the redirect itself; it calls next only with an error.
        res.once('finish', () => resolve());
        redirectToGoogle(req, res, (error?: unknown) => (error ? reject(asError(error)) : resolve()));
      });
    },
    async googleCallback({ req, res }) {
      // Without either, passport would start a new sign-in from here instead of finishing one.
      if (!req.query.code && !req.query.error) return res.redirect(302, signInPageError('cancelled-popup-request'));
      let outcome: StrategyOutcome;
      try {
        outcome = await runStrategy(passport, 'google', req, res);
      } catch (error) {
        req.log.warn({ err: error }, 'Google sign-in failed');
        outcome = { user: false, info: { code: 'internal-error' } };
      }
      res.redirect(302, await googleExchange.finish(outcome, readCookie(req, BROWSER_COOKIE), req.query.error));
    },
  };
}
