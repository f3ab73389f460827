import type { LookupKeys } from '../kit/lookup-keys';
import { EMAIL_RESERVATION_STREAM_PREFIX, WAITLIST_STREAM_PREFIX } from '../kit/stream-prefixes';

/** Where streams named by an unkeyed hash are: addresses' reservations, waitlist signups. */
export const LOOKUP_STREAM_PREFIXES: readonly string[] = [EMAIL_RESERVATION_STREAM_PREFIX, WAITLIST_STREAM_PREFIX];

/** Every such stream begins with one of these: a reservation, a signup. */
export const LOOKUP_STREAM_OPENERS: readonly string[] = ['EmailReserved', 'WaitlistJoined'];

const UNKEYED_EMAIL_STREAM = new RegExp(`^(${EMAIL_RESERVATION_STREAM_PREFIX})([0-9a-f]{64})$`);
/** A shirt id holds no dot: what follows the signup stream's one dot is its hash. */
const UNKEYED_SIGNUP_STREAM = new RegExp(`^(${WAITLIST_STREAM_PREFIX}[^.]+\\.)([0-9a-f]{64})$`);

/**
 * The name a stream named by an unkeyed hash has now (`email-<hash>` is `email-<key>`,
 * `waitlist-<shirtId>.<hash>` is `waitlist-<shirtId>.<key>`), found without the address; null for
 * any other name (keyed already, or naming nothing personal).
 */
export function keyedStreamName(keys: Pick<LookupKeys, 'fromUnkeyed'>, name: string): string | null {
  const match = UNKEYED_EMAIL_STREAM.exec(name) ?? UNKEYED_SIGNUP_STREAM.exec(name);
  return match ? `${match[1]}${keys.fromUnkeyed(match[2]!)}` : null;
}
