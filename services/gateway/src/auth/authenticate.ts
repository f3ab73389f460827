import type { Request, RequestHandler } from 'express';
import { HttpError } from '../http/http-error';
import type { TokenVerifier } from './token-verifier';

const BEARER = /^Bearer\s+(\S+)$/i;

/**
 * Reads the spec's headers: `Authorization: Bearer <token>`, `x-user-id` (must be the token's
 * subject) and `x-anonymous: true` (only with an anonymous token). No token: the request goes
 * on without a user; a bad one is refused, so a client never silently loses its identity.
 */
export function authenticate(verifier: TokenVerifier): RequestHandler {
  async function identify(req: Request, header: string): Promise<void> {
    const token = BEARER.exec(header)?.[1];
    const identity = token ? await verifier.verify(token) : null;
    if (!identity) throw new HttpError(401, 'Invalid or expired token');
    const claimedUid = req.get('x-user-id');
    if (claimedUid !== undefined && claimedUid !== identity.uid) {
      throw new HttpError(401, 'x-user-id does not match the token');
    }
    if (req.get('x-anonymous') === 'true' && !identity.anonymous) {
      throw new HttpError(401, 'x-anonymous is set but the token is not anonymous');
    }
    req.user = identity;
  }
  // Synchronous when there is no token: most requests (shop, scans) carry none, and a promise
  // per request is measurable on the hot paths.
  return (req, _res, next) => {
    const header = req.get('authorization');
    if (!header) return next();
    identify(req, header).then(() => next(), next);
  };
}

/** Spec section 5: a request that needs a user fails with this message when there is none. */
export const requireSignedIn: RequestHandler = (req, _res, next) => {
  if (!req.user) throw new HttpError(401, 'Authentication required for this request');
  if (req.user.anonymous) throw new HttpError(403, 'Please sign in with an account to do this');
  next();
};

/** The signed-in user may act on their own resources only. */
export function requireSelf(uid: string, user: Express.User | undefined): void {
  if (!user) throw new HttpError(401, 'Authentication required for this request');
  if (user.anonymous || user.uid !== uid) throw new HttpError(403, 'You can only access your own account');
}
