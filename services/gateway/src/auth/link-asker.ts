import { HttpError } from '../http/http-error';
import type { Identity } from './identity';

/** What `POST /api/auth/verify-email` answers without the asking account's session. */
const SIGN_IN_REQUIRED = 'sign-in-required';

/** Whether `caller` is the session of account `uid`. */
export const isAskedBy = (uid: string, caller: Identity | undefined): boolean =>
  caller !== undefined && !caller.anonymous && caller.uid === uid;

/**
 * A mailed link acts only for the account that asked for it, confirmed by that account's session
 * (design section 10): whoever opens the mail (the address's owner, who may be a stranger to that
 * account) cannot hand the address to it, or verify it for it, by following the link. 401 without
 * an account's session, 403 with another account's; the link stays as it was.
 */
export function assertAskedBy(uid: string, caller: Identity | undefined): void {
  if (caller === undefined || caller.anonymous) throw new HttpError(401, SIGN_IN_REQUIRED);
  if (caller.uid !== uid) {
    throw new HttpError(403, 'Another account asked for this link: only that account, signed in, can use it');
  }
}
