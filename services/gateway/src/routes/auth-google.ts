import type { Request, RequestHandler, Response } from 'express';
import { authError } from '../auth/auth-errors';
import { createGoogleAccounts, createGoogleStrategy } from '../auth/google-sign-in';
import { readCookie } from '../auth/oauth-state-cookie';
import { asError, runStrategy, type StrategyOutcome } from '../auth/run-strategy';
import { newSecret, sha256 } from '../auth/secrets';
import { type Handlers, unavailable } from '../http/route-table';
import type { AuthContext } from './auth-context';

/** The browser trades the code for tokens right after the redirect; a minute is plenty. */
const EXCHANGE_CODE_TTL_MS = 60_000;

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

/** The code as stored: only with the browser's binding can it be found again. */
const boundCodeHash = (code: string, binding: string) => sha256(`${code}:${binding}`);

const notConfigured = unavailable('Google sign-in is not configured');

/** The auth code the sign-in page shows for a sign-in that did not succeed. */
function failureCode(req: Request, info: unknown): string {
  if (typeof info === 'object' && info !== null && 'code' in info && typeof info.code === 'string') return info.code;
  if (req.query.error === 'access_denied') return 'popup-closed-by-user';
  if (req.query.error) return 'internal-error';
  // The state did not match this browser's: another sign-in was started after this one.
  return 'cancelled-popup-request';
}

/**
 * Google's authorization-code flow. The callback never puts tokens in a URL: it redirects to the
 * sign-in page with a one-time code in the fragment (never sent to a server, so never logged),
 * which the page trades for a session at POST /api/auth/exchange.
 */
export function googleHandlers(
  context: AuthContext,
): Pick<Handlers, 'startGoogleSignIn' | 'googleCallback' | 'exchangeGoogleCode'> {
  const { google, passport, credentials, accounts, sessions, clock } = context;
  const exchangeGoogleCode: Handlers['exchangeGoogleCode'] = async ({ body: { code }, req, res }) => {
    const binding = readCookie(req, BROWSER_COOKIE);
    // Another browser's attempt finds nothing and burns nothing: the code stays its owner's.
    const uid = binding
      ? await credentials.takeOneTimeCode('google-exchange', boundCodeHash(code, binding), clock().getTime())
      : null;
    if (!uid) throw authError(401, 'code-expired');
    res.clearCookie(BROWSER_COOKIE, { path: BROWSER_COOKIE_PATH });
    return { status: 200, body: await sessions.start({ uid, anonymous: false }, await accounts.profile(uid)) };
  };
  if (!google) {
    return {
      exchangeGoogleCode,
      startGoogleSignIn: notConfigured,
      googleCallback: notConfigured,
    };
  }

  passport.use('google', createGoogleStrategy(google, createGoogleAccounts(context)));
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
      if (!req.query.code && !req.query.error) return res.redirect(302, '/signin#error=cancelled-popup-request');
      let outcome: StrategyOutcome;
      try {
        outcome = await runStrategy(passport, 'google', req, res);
      } catch (error) {
        req.log.warn({ err: error }, 'Google sign-in failed');
        outcome = { user: false, info: { code: 'internal-error' } };
      }
      if (!outcome.user) return res.redirect(302, `/signin#error=${failureCode(req, outcome.info)}`);
      // The state cookie proved this browser started the sign-in, so it holds the binding too.
      const binding = readCookie(req, BROWSER_COOKIE);
      if (!binding) return res.redirect(302, '/signin#error=cancelled-popup-request');
      const code = newSecret();
      const now = clock().getTime();
      const expiresAt = now + EXCHANGE_CODE_TTL_MS;
      await credentials.addOneTimeCode(
        'google-exchange',
        boundCodeHash(code, binding),
        { uid: outcome.user.uid, expiresAt },
        now,
      );
      res.redirect(302, `/signin#google=${code}`);
    },
  };
}
