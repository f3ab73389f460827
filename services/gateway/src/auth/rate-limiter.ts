import { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { HttpError } from '../http/http-error';
import { authError } from './auth-errors';

/** What is limited; each has its allowances in `RATE_LIMITS`. */
export type LimitedAction =
  | 'signup'
  | 'signin'
  | 'anonymous'
  /** Every mail a stranger can make us send to an address: verification links and reset links. */
  | 'mail'
  | 'phone-start'
  | 'phone-confirm'
  | 'password-reset-confirm';

export type LimitScope = 'ip' | 'account';

/** One counter: what is limited (e.g. `signin`) for whom (a client address or an account key). */
export interface RateLimitKey {
  action: LimitedAction;
  scope: LimitScope;
  subject: string;
}

/** `client` is the caller's address, as the handler read it from the request. */
export function limitByIp(action: LimitedAction, client: string): RateLimitKey {
  return { action, scope: 'ip', subject: client };
}

/** `subject` is a hash of the email or phone number, so counters hold no personal data. */
export function limitByAccount(action: LimitedAction, subject: string): RateLimitKey {
  return { action, scope: 'account', subject };
}

interface Allowance {
  points: number;
  durationSeconds: number;
}

const HOUR = 3_600;
const QUARTER_HOUR = 900;

/**
 * Every limit in one place. Per account (an email's or a phone number's hash): enough for typos,
 * far too few for guessing. Per client address: several people can share one (an office, a school).
 */
export const RATE_LIMITS: Record<LimitedAction, Partial<Record<LimitScope, Allowance>>> = {
  // Successful sign-ups count too: one address must not open unlimited accounts.
  signup: { ip: { points: 20, durationSeconds: HOUR } },
  // Successes are forgiven: only failures use the allowance up.
  signin: { ip: { points: 50, durationSeconds: QUARTER_HOUR }, account: { points: 10, durationSeconds: QUARTER_HOUR } },
  anonymous: { ip: { points: 60, durationSeconds: HOUR } },
  mail: { ip: { points: 5, durationSeconds: HOUR }, account: { points: 3, durationSeconds: HOUR } },
  'phone-start': {
    ip: { points: 50, durationSeconds: QUARTER_HOUR },
    account: { points: 10, durationSeconds: QUARTER_HOUR },
  },
  'phone-confirm': { ip: { points: 50, durationSeconds: QUARTER_HOUR } },
  'password-reset-confirm': { ip: { points: 50, durationSeconds: QUARTER_HOUR } },
};

export interface RateLimiter {
  /**
   * Counts an attempt before it is made, and refuses it with 429 (and Retry-After) when a counter
   * is over its limit. Counting first means parallel guesses cannot all slip in before their
   * failures are counted.
   */
  attempt(keys: readonly RateLimitKey[]): Promise<void>;
  /** Takes back the attempts of a success, where only failures should use the allowance up. */
  forgive(keys: readonly RateLimitKey[]): Promise<void>;
  close(): Promise<void>;
}

type Limiter = RateLimiterMemory | RateLimiterRedis;

/**
 * Limits with rate-limiter-flexible: fixed windows starting at a key's first hit, O(1) per
 * request, in process or in Redis (shared by every gateway; a window then ends by Redis's clock).
 * Keys are `qr:rl:<action>:<scope>:<subject>`; subjects are addresses or hashes, never an email.
 */
export function createRateLimiter(backend: { redisUrl?: string } = {}): RateLimiter {
  // A request waits for its counters: when Redis is gone, fail within moments instead of queueing.
  const redis = backend.redisUrl ? new Redis(backend.redisUrl, { maxRetriesPerRequest: 1 }) : undefined;
  // Connection errors reach each command's caller; without a listener ioredis would also print
  // every reconnection attempt to stderr.
  redis?.on('error', () => {});
  const limiters = new Map<string, Limiter>();
  for (const [action, scopes] of Object.entries(RATE_LIMITS)) {
    for (const [scope, { points, durationSeconds }] of Object.entries(scopes)) {
      const options = { points, duration: durationSeconds, keyPrefix: `qr:rl:${action}:${scope}` };
      limiters.set(
        `${action}:${scope}`,
        redis ? new RateLimiterRedis({ ...options, storeClient: redis }) : new RateLimiterMemory(options),
      );
    }
  }
  const limiterOf = ({ action, scope }: RateLimitKey): Limiter => {
    const limiter = limiters.get(`${action}:${scope}`);
    if (!limiter) throw new Error(`no ${scope} limit for ${action} in RATE_LIMITS`);
    return limiter;
  };

  return {
    async attempt(keys) {
      const outcomes = await Promise.allSettled(keys.map((key) => limiterOf(key).consume(key.subject)));
      const refusals = outcomes.flatMap((outcome) =>
        outcome.status === 'rejected' ? [outcome.reason as unknown] : [],
      );
      if (refusals.length === 0) return;
      // A refusal is a RateLimiterRes; anything else means the counters cannot be reached, and
      // nothing may be tried without them (the limits would be off).
      if (refusals.some((reason) => !(reason instanceof RateLimiterRes))) {
        throw new HttpError(503, 'Sign-in is unavailable right now. Please try again in a moment.');
      }
      const waitMs = Math.max(...refusals.map((reason) => (reason as RateLimiterRes).msBeforeNext));
      throw authError(429, 'too-many-requests', { 'Retry-After': String(Math.max(1, Math.ceil(waitMs / 1000))) });
    },
    async forgive(keys) {
      // Best effort: the success it follows stands, and an attempt left counted only expires later.
      await Promise.all(keys.map((key) => limiterOf(key).reward(key.subject))).catch(() => undefined);
    },
    async close() {
      await redis?.quit().catch(() => undefined);
    },
  };
}
