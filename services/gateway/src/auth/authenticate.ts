import type { Request, RequestHandler } from 'express';
import { HttpError } from '../http/http-error';
import type { TokenVerifier } from './token-verifier';

const BEARER = /^Bearer\s+(\S+)$/i;

/**
 * Reads the spec's headers: `Authorization: Bearer <token>`, `x-user-id` (must be the token's
 * subject) and `x-anonymous: true` (only with an anonymous token). No token: the request goes
 * on without a user; a bad one is refused, so a client never silently loses its identity, and a
 * closed account's finds nobody.
 */
export function authenticate(
  verifier: TokenVerifier,
  isClosedAccount: (this: void, uid: string) => Promise<boolean>,
): RequestHandler {
  async function identify(req: Request, header: string): Promise<void> {
    const token = BEARER.exec(header)?.[1];
    const identity = token ? await verifier.verify(token) : null;
    if (!identity) throw new HttpError(401, 'Invalid or expired token');
    // Closing an account ends its sessions at once: an access token outlives its refresh token by
    // up to its lifetime (15 minutes), in which it could still create or claim a fundraiser. It
    // names a user who is no longer there, as `GET /api/user/{id}` and closing again answer.
    if (!identity.anonymous && (await isClosedAccount(identity.uid))) throw new HttpError(404, 'User not found');
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
