import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RateLimitStore } from './rate-limit-store';

export interface RateLimitStoreFixture {
  store: RateLimitStore;
  /** Lets this much time pass for the store (a test clock, or real waiting). */
  pass(ms: number): Promise<void>;
}

/** The behaviour every rate-limit counter adapter must show. */
export function describeRateLimitStoreContract(name: string, setup: () => RateLimitStoreFixture | Promise<RateLimitStoreFixture>): void {
  describe(`${name} rate-limit store contract`, () => {
    let fixture: RateLimitStoreFixture;
    const key = () => `test:${randomUUID()}`;
    beforeEach(async () => {
      fixture = await setup();
    });
    afterEach(async () => {
      await fixture.store.close();
    });

    it('counts per key', async () => {
      const [a, b] = [key(), key()];
      expect(await fixture.store.increment(a, 60_000)).toBe(1);
      expect(await fixture.store.increment(a, 60_000)).toBe(2);
      expect(await fixture.store.increment(b, 60_000)).toBe(1);
    });

    it('counts every one of many concurrent increments once', async () => {
      const k = key();
      const counts = await Promise.all(Array.from({ length: 50 }, () => fixture.store.increment(k, 60_000)));
      expect(counts.sort((x, y) => x - y)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    });

    it('starts over once the window that began with the first hit has ended', async () => {
      const k = key();
      await fixture.store.increment(k, 1_000);
      await fixture.pass(300);
      expect(await fixture.store.increment(k, 1_000)).toBe(2);
      await fixture.pass(1_100);
      expect(await fixture.store.increment(k, 1_000)).toBe(1);
    });

    it('takes one back, never below zero, and does not revive an ended window', async () => {
      const k = key();
      await fixture.store.increment(k, 1_000);
      await fixture.store.increment(k, 1_000);
      await fixture.store.decrement(k);
      expect(await fixture.store.increment(k, 1_000)).toBe(2);
      await fixture.store.decrement(k);
      await fixture.store.decrement(k);
      await fixture.store.decrement(k);
      expect(await fixture.store.increment(k, 1_000)).toBe(1);
      await fixture.pass(1_100);
      await fixture.store.decrement(k);
      expect(await fixture.store.increment(k, 1_000)).toBe(1);
      const fresh = key();
      await fixture.store.decrement(fresh);
      expect(await fixture.store.increment(fresh, 1_000)).toBe(1);
    });
  });
}
