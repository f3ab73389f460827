import type { Clock } from '@qrshirt/core';

/**
 * Counters for rate limiting, each in a fixed window that starts at its first hit. Adapters: in
 * process (one gateway) and Redis (shared by every gateway process), both passing
 * `rate-limit-store.contract.ts`.
 */
export interface RateLimitStore {
  /** Adds one and answers the count in the key's current window. */
  increment(key: string, windowMs: number): Promise<number>;
  /** Takes one back, never below zero; a key whose window ended stays gone. */
  decrement(key: string): Promise<void>;
  close(): Promise<void>;
}

/** Beyond this many live keys, an increment first drops the ones whose window ended. */
const SWEEP_AT = 10_000;

export function createMemoryRateLimitStore({ clock }: { clock: Clock }): RateLimitStore {
  const counters = new Map<string, { count: number; endsAt: number }>();
  const live = (key: string, now: number) => {
    const counter = counters.get(key);
    if (counter && counter.endsAt <= now) counters.delete(key);
    return counter && counter.endsAt > now ? counter : undefined;
  };
  return {
    async increment(key, windowMs) {
      const now = clock().getTime();
      if (counters.size >= SWEEP_AT) for (const name of counters.keys()) live(name, now);
      const counter = live(key, now) ?? { count: 0, endsAt: now + windowMs };
      counter.count += 1;
      counters.set(key, counter);
      return counter.count;
    },
    async decrement(key) {
      const counter = live(key, clock().getTime());
      if (counter && counter.count > 0) counter.count -= 1;
    },
    async close() {
      counters.clear();
    },
  };
}
