import { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { HttpError } from '../http/http-error';
import { authError } from './auth-errors';

/** What is limited; each has its allowances in `RATE_LIMITS`. */
type LimitedAction =
  | 'signup'
  | 'signin'
  | 'anonymous'
  /** Mail for an account: reset, verification and change-of-address links. */
  | 'account-mail'
  /** Waitlist confirmations, which anyone may ask for any address. */
  | 'waitlist-mail'
  | 'phone-start'
  | 'phone-confirm'
  | 'password-reset-confirm';

type LimitScope = 'ip' | 'account' | 'client-account';

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

/**
 * `subject` is the lookup key of the email or phone number (or a user id), so counters hold no
 * personal data, nor anything to test an address against without the server's secret.
 */
export function limitByAccount(action: LimitedAction, subject: string): RateLimitKey {
  return { action, scope: 'account', subject };
}

/** One client's attempts at one account (`subject` as for limitByAccount): whoever guesses is stopped first. */
function limitByClientAndAccount(action: LimitedAction, client: string, subject: string): RateLimitKey {
  return { action, scope: 'client-account', subject: `${client}.${subject}` };
}

/**
 * The budgets a sign-in with a password counts against: the client's, the client's at this
 * account, and the account's, which only slows down (see `Allowance.slowdown`): a stranger's
 * guesses must not lock its owner out.
 */
export function signInWithPassword(accountKey: string, client: string): RateLimitKey[] {
  return [
    limitByIp('signin', client),
    limitByClientAndAccount('signin', client, accountKey),
    limitByAccount('signin', accountKey),
  ];
}

/**
 * The budgets a mail for an account, asked for by `client`, counts against: the client's, and the
 * one of that account (`uid`; null when no account holds the address) and that recipient
 * (`recipientKey`, the lookup key of its address). Someone else's account, or a stranger's waitlist
 * joins, spend none of what an account's own mail to its own address may use.
 */
export function accountMail(uid: string | null, recipientKey: string, client: string): RateLimitKey[] {
  return [limitByIp('account-mail', client), limitByAccount('account-mail', `${uid ?? '-'}.${recipientKey}`)];
}

/** The budgets a waitlist confirmation counts against: the recipient's and the client's. */
export function waitlistMail(recipientKey: string, client: string): RateLimitKey[] {
  return [limitByIp('waitlist-mail', client), limitByAccount('waitlist-mail', recipientKey)];
}

interface Allowance {
  points: number;
  durationSeconds: number;
  /**
   * Past `points`, attempts are not refused for the rest of the window but spaced: after each one,
   * the next waits 1 s, then twice as long as the last wait, up to `durationSeconds`.
   */
  slowdown?: true;
}

const HOUR = 3_600;
const QUARTER_HOUR = 900;
const DAY = 24 * HOUR;

/**
 * Every limit in one place. Per account (an email's or a phone number's lookup key): enough for typos,
 * far too few for guessing. Per client address: several people can share one (an office, a school).
 */
const RATE_LIMITS: Record<LimitedAction, Partial<Record<LimitScope, Allowance>>> = {
  // Successful sign-ups count too: one address must not open unlimited accounts.
  signup: { ip: { points: 20, durationSeconds: HOUR } },
  // Successes are forgiven: only failures use the allowance up. The guessing client is stopped
  // after 5 at one account; past 10 from anywhere the account is slowed down, not locked.
  signin: {
    ip: { points: 50, durationSeconds: QUARTER_HOUR },
    'client-account': { points: 5, durationSeconds: QUARTER_HOUR },
    account: { points: 10, durationSeconds: QUARTER_HOUR, slowdown: true },
  },
  anonymous: { ip: { points: 60, durationSeconds: HOUR } },
  // A mailbox gets at most 3 links a day for one account, and 3 waitlist confirmations a day,
  // whoever asks; a client asks for at most as many of each as it may open accounts.
  'account-mail': { ip: { points: 20, durationSeconds: HOUR }, account: { points: 3, durationSeconds: DAY } },
  'waitlist-mail': { ip: { points: 20, durationSeconds: HOUR }, account: { points: 3, durationSeconds: DAY } },
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
   * failures are counted. The refusal says `refusal`, or the spec's too-many-requests message.
   */
  attempt(keys: readonly RateLimitKey[], refusal?: string): Promise<void>;
  /**
   * Counts an attempt as `attempt` does, answering whether every counter was within its limit
   * instead of refusing: for what goes on without the limited part (a join past its mail budget).
   */
  allows(keys: readonly RateLimitKey[]): Promise<boolean>;
  /** Takes back the attempts of a success, where only failures should use the allowance up. */
  forgive(keys: readonly RateLimitKey[]): Promise<void>;
  close(): Promise<void>;
}

type Limiter = RateLimiterMemory | RateLimiterRedis;

/**
 * Limits with rate-limiter-flexible: fixed windows starting at a key's first hit, O(1) per
 * request, in process or in Redis (shared by every gateway; a window then ends by Redis's clock).
 * Keys are `qr:rl:<action>:<scope>:<subject>`; subjects are client addresses, lookup keys or user ids,
 * never an email.
 */
export function createRateLimiter(backend: { redisUrl?: string } = {}): RateLimiter {
  // A request waits for its counters: when Redis is gone, fail within moments instead of queueing.
  const redis = backend.redisUrl ? new Redis(backend.redisUrl, { maxRetriesPerRequest: 1 }) : undefined;
  // Connection errors reach each command's caller; without a listener ioredis would also print
  // every reconnection attempt to stderr.
  redis?.on('error', () => {});
  const newLimiter = (options: { points: number; duration: number; keyPrefix: string }): Limiter =>
    redis ? new RateLimiterRedis({ ...options, storeClient: redis }) : new RateLimiterMemory(options);
  /** Per key: its counter, its allowance, and for a slowdown the wait before its next attempt. */
  const limiters = new Map<string, { counter: Limiter; allowance: Allowance; wait?: Limiter }>();
  for (const [action, scopes] of Object.entries(RATE_LIMITS)) {
    for (const [scope, allowance] of Object.entries(scopes)) {
      const keyPrefix = `qr:rl:${action}:${scope}`;
      limiters.set(`${action}:${scope}`, {
        counter: newLimiter({ points: allowance.points, duration: allowance.durationSeconds, keyPrefix }),
        allowance,
        ...(allowance.slowdown && {
          wait: newLimiter({ points: 1, duration: allowance.durationSeconds, keyPrefix: `${keyPrefix}:wait` }),
        }),
      });
    }
  }
  const limiterOf = ({ action, scope }: RateLimitKey) => {
    const limiter = limiters.get(`${action}:${scope}`);
    if (!limiter) throw new Error(`no ${scope} limit for ${action} in RATE_LIMITS`);
    return limiter;
  };

  /** The counters cannot be reached: nothing may be tried without them (the limits would be off). */
  const unavailable = () => new HttpError(503, 'Sign-in is unavailable right now. Please try again in a moment.');

  /**
   * The refusals of counting an attempt against every key; empty when all were within their
   * limits. A slowdown's key past its allowance sets the wait before its next attempt instead.
   */
  async function count(keys: readonly RateLimitKey[]): Promise<RateLimiterRes[]> {
    const outcomes = await Promise.allSettled(keys.map((key) => limiterOf(key).counter.consume(key.subject)));
    const refusals: RateLimiterRes[] = [];
    for (const [index, outcome] of outcomes.entries()) {
      if (outcome.status === 'fulfilled') continue;
      if (!(outcome.reason instanceof RateLimiterRes)) throw unavailable();
      const key = keys[index]!;
      const { allowance, wait } = limiterOf(key);
      if (!wait) {
        refusals.push(outcome.reason);
        continue;
      }
      const past = outcome.reason.consumedPoints - allowance.points;
      await wait.block(key.subject, Math.min(2 ** (past - 1), allowance.durationSeconds)).catch(() => {
        throw unavailable();
      });
    }
    return refusals;
  }

  /** The waits of the slowdowns among `keys` that have not passed yet; counted as attempts, they would only grow. */
  async function waiting(keys: readonly RateLimitKey[]): Promise<RateLimiterRes[]> {
    const waits = await Promise.all(
      keys.map(async (key) => {
        const { wait } = limiterOf(key);
        return wait && (await wait.get(key.subject).catch(() => Promise.reject(unavailable())));
      }),
    );
    return waits.filter(
      (wait): wait is RateLimiterRes =>
        wait instanceof RateLimiterRes && wait.consumedPoints > 1 && wait.msBeforeNext > 0,
    );
  }

  return {
    async attempt(keys, refusal) {
      const waits = await waiting(keys);
      const refusals = waits.length > 0 ? waits : await count(keys);
      if (refusals.length === 0) return;
      const waitMs = Math.max(...refusals.map((reason) => reason.msBeforeNext));
      const headers = { 'Retry-After': String(Math.max(1, Math.ceil(waitMs / 1000))) };
      throw refusal
        ? new HttpError(429, refusal, 'too-many-requests', headers)
        : authError(429, 'too-many-requests', headers);
    },
    async allows(keys) {
      return (await count(keys)).length === 0;
    },
    async forgive(keys) {
      // Best effort: the success it follows stands, and an attempt left counted only expires later.
      await Promise.all(keys.map((key) => limiterOf(key).counter.reward(key.subject))).catch(() => undefined);
    },
    async close() {
      await redis?.quit().catch(() => undefined);
    },
  };
}
