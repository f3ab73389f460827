import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { expect, it } from 'vitest';
import { describeReadModelStoreContract } from '@qrshirt/projections/testing';
import { createRedisReadModelStore } from '../src/redis-read-model-store';
import { describeWithRedis } from '@qrshirt/test-support/vitest';

// Each test gets a fresh key prefix, so tests can share one Redis (or a REDIS_URL someone uses).
describeWithRedis('redis read-model store', (redis) => {
  describeReadModelStoreContract('redis', () =>
    createRedisReadModelStore({ url: redis.url, keyPrefix: redis.freshPrefix() }),
  );

  it('keeps the documented key layout, which operators and scripts rely on', async () => {
    const prefix = redis.freshPrefix();
    const store = createRedisReadModelStore({ url: redis.url, keyPrefix: prefix });
    const raw = new Redis(redis.url);
    try {
      await store.projection('stats').commit(null, 5, [
        { op: 'set', key: 'name', value: 'n' },
        { op: 'hset', key: 'totals', field: 'scans', value: '1' },
      ]);
      const next = await store.createVersion('stats');
      await store.projection('stats', next).commit(null, 6, [{ op: 'sadd', key: 'ids', member: 'a' }]);
      await store.activate('stats', next);

      const keys: string[] = [];
      for await (const chunk of raw.scanStream({ match: `${prefix}:*` })) keys.push(...(chunk as string[]));
      expect(keys.sort()).toEqual(
        [
          `${prefix}:stats:active`,
          `${prefix}:stats:versions`,
          `${prefix}:stats:v1:cp`,
          `${prefix}:stats:v1:d:name`,
          `${prefix}:stats:v1:d:totals`,
          `${prefix}:stats:v${next}:cp`,
          `${prefix}:stats:v${next}:d:ids`,
        ].sort(),
      );
      expect(await raw.get(`${prefix}:stats:active`)).toBe(String(next));
      expect(await raw.get(`${prefix}:stats:v1:cp`)).toBe('5');
      expect(await raw.hgetall(`${prefix}:stats:v1:d:totals`)).toEqual({ scans: '1' });
    } finally {
      await store.close();
      await raw.quit();
    }
  });

  it("uses the prefix 'qr:rm' unless told otherwise", async () => {
    const projection = `test-${randomUUID()}`;
    const store = createRedisReadModelStore({ url: redis.url });
    const raw = new Redis(redis.url);
    try {
      await store.projection(projection).commit(null, 1, [{ op: 'set', key: 'k', value: 'v' }]);
      expect(await raw.get(`qr:rm:${projection}:v1:d:k`)).toBe('v');
    } finally {
      await raw.del(`qr:rm:${projection}:v1:d:k`, `qr:rm:${projection}:v1:cp`);
      await store.close();
      await raw.quit();
    }
  });

  it('reloads its scripts after Redis forgot them', async () => {
    const store = createRedisReadModelStore({ url: redis.url, keyPrefix: redis.freshPrefix() });
    const raw = new Redis(redis.url);
    try {
      const stats = store.projection('stats');
      await stats.commit(null, 1, [{ op: 'set', key: 'k', value: 'before' }]);
      await raw.script('FLUSH');
      expect(await stats.commit(1, 2, [{ op: 'set', key: 'k', value: 'after' }])).toBe(true);
      expect(await stats.get('k')).toBe('after');
    } finally {
      await store.close();
      await raw.quit();
    }
  });
});
