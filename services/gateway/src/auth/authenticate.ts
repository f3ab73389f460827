import type { Request, RequestHandler } from 'express';
import { HttpError } from '../http/http-error';
import type { TokenVerifier } from './token-verifier';

const BEARER = /^Bearer\s+(\S+)$/i;

/** What the token check asks about an account besides the token itself. */
interface AccountSessions {
  /** Whether the account was closed, as far as its read model has seen. */
  isClosedAccount(this: void, uid: string): Promise<boolean>;
  /** The instant the account last ended its sessions (epoch ms): tokens issued before it are refused. */
  sessionsValidAfter(this: void, uid: string): Promise<number | null>;
}

/**
 * Reads the spec's headers: `Authorization: Bearer <token>`, `x-user-id` (must be the token's
 * subject) and `x-anonymous: true` (only with an anonymous token). No token: the request goes
 * on without a user; a bad one is refused, so a client never silently loses its identity, and a
 * closed account's finds nobody.
 */
export function authenticate(verifier: TokenVerifier, accounts: AccountSessions): RequestHandler {
  async function identify(req: Request, header: string): Promise<void> {
    const token = BEARER.exec(header)?.[1];
    const verified = token ? await verifier.verify(token) : null;
    if (!verified) throw new HttpError(401, 'Invalid or expired token');
    const { uid, anonymous, issuedAt } = verified;
    // An access token outlives the session that issued it by up to its lifetime (15 minutes):
    // a password reset, a sign-out everywhere or a closing ends it at once, in every gateway.
    // Anonymous sessions are never ended that way.
    if (!anonymous) {
      const [closed, validAfter] = await Promise.all([accounts.isClosedAccount(uid), accounts.sessionsValidAfter(uid)]);
      // It names a user who is no longer there, as `GET /api/user/{id}` and closing again answer.
      if (closed) throw new HttpError(404, 'User not found');
      if (validAfter !== null && issuedAt < validAfter) throw new HttpError(401, 'Invalid or expired token');
    }
    const claimedUid = req.get('x-user-id');
    if (claimedUid !== undefined && claimedUid !== uid) {
      throw new HttpError(401, 'x-user-id does not match the token');
    }
    if (req.get('x-anonymous') === 'true' && !anonymous) {
      throw new HttpError(401, 'x-anonymous is set but the token is not anonymous');
    }
    req.user = { uid, anonymous };
  }
  // Synchronous when there is no token: most requests (shop, scans) carry none, and a promise
  // per request is measurable on the hot paths.
  return (req, _res, next) => {
    const header = req.get('authorization');
    if (!header) return next();
    identify(req, header).then(() => next(), next);
  };
}
