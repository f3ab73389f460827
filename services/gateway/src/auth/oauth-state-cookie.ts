import type { Request } from 'express';
import type { StateStore } from 'passport-oauth2';
import { readCookie } from '../http/cookies';
import { equalSecrets, newSecret } from './secrets';

const COOKIE = 'qr_oauth_state';
const COOKIE_PATH = '/api/auth/google';
const MAX_AGE_MS = 10 * 60_000;

/**
 * OAuth `state` without server sessions: a random value sent to the provider and kept in an
 * HttpOnly cookie of this browser. The callback must bring both back and they must match, so
 * nobody can make a victim's browser finish a sign-in that the attacker started (login CSRF).
 * SameSite=Lax still sends it on the provider's top-level redirect back to the callback.
 */
export function createOAuthStateCookie(): StateStore {
  const store = {
    store(req: Request, _meta: unknown, callback: (error: Error | null, state?: string) => void) {
      const state = newSecret();
      req.res!.cookie(COOKIE, state, {
        httpOnly: true,
        sameSite: 'lax',
        secure: req.secure,
        path: COOKIE_PATH,
        maxAge: MAX_AGE_MS,
      });
      callback(null, state);
    },
    verify(
      req: Request,
      state: string,
      callback: (error: Error | null, ok: boolean, info?: { message: string }) => void,
    ) {
      const expected = readCookie(req, COOKIE);
      req.res!.clearCookie(COOKIE, { path: COOKIE_PATH });
      if (!expected || typeof state !== 'string' || !equalSecrets(expected, state)) {
        callback(null, false, { message: 'The sign-in state does not match this browser' });
        return;
      }
      callback(null, true);
    },
  };
  // passport-oauth2 picks the overload by the functions' arity, which the literal above fixes.
  return store as unknown as StateStore;
}
