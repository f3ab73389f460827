import { HttpError } from '../http/http-error';
import { authError } from './auth-errors';
import type { RateLimitStore } from './rate-limit-store';

const WINDOW_MS = 15 * 60_000;
/** Per account (email, phone number): enough for typos, far too few for guessing. */
const PER_ACCOUNT = 10;
/** Per client address: several people can share one (an office, a school). */
const PER_IP = 50;

/** One counter: what is limited (e.g. `signin`) for whom (an address or an account key). */
export interface RateLimitKey {
  action: string;
  scope: 'ip' | 'account';
  subject: string;
}

export interface RateLimiter {
  /**
   * Counts an attempt before it is made, and refuses it with 429 when a counter is over its
   * limit. Counting first means parallel guesses cannot all slip in before their failures
   * are counted.
   */
  attempt(keys: readonly RateLimitKey[]): Promise<void>;
  /** Takes back the attempts of a success, so only failures use the allowance up. */
  forgive(keys: readonly RateLimitKey[]): Promise<void>;
}

const limitOf = (key: RateLimitKey) => (key.scope === 'ip' ? PER_IP : PER_ACCOUNT);
const nameOf = (key: RateLimitKey) => `${key.action}:${key.scope}:${key.subject}`;
const tooManyRequests = (): HttpError => authError(429, 'too-many-requests');

/** Without its counters nothing may be tried (the limits would be off), so the answer is 503. */
async function counted<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch {
    throw new HttpError(503, 'Sign-in is unavailable right now. Please try again in a moment.');
  }
}

export function createRateLimiter(store: RateLimitStore): RateLimiter {
  return {
    async attempt(keys) {
      const counts = await counted(Promise.all(keys.map((key) => store.increment(nameOf(key), WINDOW_MS))));
      if (counts.some((count, index) => count > limitOf(keys[index]!))) throw tooManyRequests();
    },
    async forgive(keys) {
      // Best effort: the success it follows stands, and an attempt left counted only expires later.
      await Promise.all(keys.map((key) => store.decrement(nameOf(key)))).catch(() => undefined);
    },
  };
}
