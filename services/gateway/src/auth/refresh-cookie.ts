import { REFRESH_COOKIE, REFRESH_COOKIE_PATH } from '@qrshirt/contracts';
import type { CookieOptions, Response } from 'express';
import type { IssuedSession } from './sessions';

/**
 * Secure always, whatever the request came over: browsers keep a Secure cookie from
 * http://localhost too, so `npm start` works, and nowhere else over plain HTTP (see docs/api.md).
 * Strict: a browser sends it on no request another site starts, links and redirects included.
 */
const attributes: CookieOptions = { httpOnly: true, secure: true, sameSite: 'strict', path: REFRESH_COOKIE_PATH };

/** The answer of a route that starts or renews a session: the body, with its refresh token set in the cookie. */
export function sessionAnswer(res: Response, { session, refresh }: IssuedSession) {
  res.cookie(REFRESH_COOKIE, refresh.token, { ...attributes, maxAge: refresh.maxAgeMs });
  return session;
}

export function clearRefreshCookie(res: Response): void {
  res.clearCookie(REFRESH_COOKIE, attributes);
}
