import { createHash, createHmac } from 'node:crypto';
import { normalEmailAddress } from './email-address';

/**
 * What makes two waitlist signups the same one, with the shirt (in the stream name): the email in
 * any case, the size, the charity.
 */
export interface WaitlistSignup {
  email: string;
  size: string;
  charityId: string;
}

/**
 * Every lookup key starts with this. The unkeyed hashes names carried before (64 hex digits)
 * cannot, so a name says whether it was migrated.
 */
const KEYED_PREFIX = 'k-';

/** A lookup key: the prefix and an HMAC-SHA256 in hex. */
export const LOOKUP_KEY = new RegExp(`^${KEYED_PREFIX}[0-9a-f]{64}$`);

/** An unkeyed SHA-256 in hex, as stream names and phone identities carried before lookup keys. */
export const UNKEYED_HASH = /^[0-9a-f]{64}$/;

/** Secrets shorter than this are refused: the key is all that stands between a log and a dictionary of addresses. */
export const MIN_LOOKUP_KEY_SECRET_LENGTH = 32;

/**
 * The keys stream names, credentials and rate limits find personal data by (an address's
 * reservation, a waitlist signup, a phone number's account) without holding it: keyed with a
 * server secret, so nobody who reads the log, a backup or the credentials store can test a known
 * address or a phone number against them, and after a person is erased nothing there says which
 * address had an account. The same for every spelling of an address.
 */
export interface LookupKeys {
  email(address: string): string;
  waitlistSignup(signup: WaitlistSignup): string;
  /** `number` in E.164, as phone sign-in normalises it. */
  phone(number: string): string;
  /**
   * The key of whatever had this unkeyed hash: maps a name written before lookup keys to its
   * new one without the address or number, so erased people's names move too.
   */
  fromUnkeyed(unkeyedHash: string): string;
  /**
   * Says which secret made the keys, and nothing else: the log records it, so a process started
   * with another secret, which would find nothing by its keys, refuses to run.
   */
  fingerprint: string;
}

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/** The unkeyed hash an address's reservation stream was named by before lookup keys. */
export const unkeyedEmailHash = (address: string): string => sha256(normalEmailAddress(address));

/** The unkeyed hash a waitlist signup's stream was named by before lookup keys. */
export const unkeyedWaitlistSignupHash = ({ email, size, charityId }: WaitlistSignup): string =>
  sha256(`${normalEmailAddress(email)}\u0000${size.trim()}\u0000${charityId.trim()}`);

/** The unkeyed hash a phone number's identity had before lookup keys. */
export const unkeyedPhoneHash = (number: string): string => sha256(number);

/**
 * Each key is HMAC-SHA256 under the secret of the unkeyed hash it replaces, so a name written
 * before maps to its new one mechanically (`fromUnkeyed`). The secret must never change: every
 * name would change with it.
 */
export function createLookupKeys(secret: string): LookupKeys {
  if (secret.length < MIN_LOOKUP_KEY_SECRET_LENGTH) {
    throw new Error(`A lookup key secret has at least ${MIN_LOOKUP_KEY_SECRET_LENGTH} characters`);
  }
  const keyed = (text: string) => createHmac('sha256', secret).update(text).digest('hex');
  const fromUnkeyed = (unkeyedHash: string): string => {
    if (!UNKEYED_HASH.test(unkeyedHash)) throw new Error('Not an unkeyed hash: 64 hex digits expected');
    return `${KEYED_PREFIX}${keyed(unkeyedHash)}`;
  };
  return {
    email: (address) => fromUnkeyed(unkeyedEmailHash(address)),
    waitlistSignup: (signup) => fromUnkeyed(unkeyedWaitlistSignupHash(signup)),
    phone: (number) => fromUnkeyed(unkeyedPhoneHash(number)),
    fromUnkeyed,
    fingerprint: keyed('qrshirt lookup keys fingerprint').slice(0, 32),
  };
}
