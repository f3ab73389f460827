import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { expect, it } from 'vitest';
import { describeWithRedis } from '../../../scripts/infra/describe-with-redis';
import { describeRateLimitStoreContract } from '../src/auth/rate-limit-store.contract';
import { createMemoryRateLimitStore } from '../src/auth/rate-limit-store';
import { createRedisRateLimitStore } from '../src/auth/redis-rate-limit-store';
import { testClock } from './support/accounts';

describeRateLimitStoreContract('in-process', () => {
  const time = testClock();
  return {
    store: createMemoryRateLimitStore({ clock: time.clock }),
    async pass(ms) {
      time.advance(ms);
    },
  };
});

describeWithRedis('redis rate-limit store', (redis) => {
  describeRateLimitStoreContract('redis', () => ({
    store: createRedisRateLimitStore({ url: redis.url, keyPrefix: redis.freshPrefix() }),
    pass: (ms) => sleep(ms),
  }));

  it('gives every counter a TTL, so no key outlives its window', async () => {
    const prefix = redis.freshPrefix();
    const store = createRedisRateLimitStore({ url: redis.url, keyPrefix: prefix });
    const raw = new Redis(redis.url);
    try {
      await store.increment('signin:ip:203.0.113.9', 15 * 60_000);
      await store.increment('signin:ip:203.0.113.9', 15 * 60_000);
      await store.decrement('signin:ip:203.0.113.9');
      const ttl = await raw.pttl(`${prefix}:signin:ip:203.0.113.9`);
      expect(ttl).toBeGreaterThan(14 * 60_000);
      expect(ttl).toBeLessThanOrEqual(15 * 60_000);
    } finally {
      await raw.quit();
      await store.close();
    }
  });
});
