import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalRedis, findRedisServer, startRedis } from '../../scripts/infra/redis';
import { infraRequired } from '../../scripts/infra/require-infra';
import { describeReadModelStoreContract } from '../src/store/read-model-store.contract';
import { createRedisReadModelStore } from '../src/store/redis-read-model-store';

const givenUrl = process.env.REDIS_URL;
const canStart = givenUrl !== undefined || findRedisServer() !== undefined;
const reason = 'redis-server not found (run scripts/infra/install-redis.sh)';

if (!canStart && !infraRequired('redis')) {
  console.warn(`[redis] skipped: ${reason}`);
  describe.skip(`redis read-model store (skipped: ${reason})`, () => {
    describeReadModelStoreContract('redis', () => createRedisReadModelStore({ url: 'redis://unused' }));
  });
} else {
  describe('redis read-model store', () => {
    let local: LocalRedis | undefined;
    let url = givenUrl ?? '';

    beforeAll(async () => {
      if (!canStart) throw new Error(`REQUIRE_INFRA names redis, but ${reason} and REDIS_URL is not set`);
      if (givenUrl === undefined) {
        local = await startRedis();
        url = local.url;
      }
    });
    // A fresh key prefix per test, so tests can share one Redis (or a REDIS_URL someone uses).
    const runPrefix = `qr:test:${randomUUID()}`;
    let tests = 0;
    const testPrefix = () => `${runPrefix}:${++tests}`;

    afterAll(async () => {
      // A REDIS_URL server outlives the run: leave nothing behind on it.
      if (givenUrl !== undefined) {
        const raw = new Redis(givenUrl);
        for await (const keys of raw.scanStream({ match: `${runPrefix}:*`, count: 1000 })) {
          if ((keys as string[]).length > 0) await raw.unlink(...(keys as string[]));
        }
        await raw.quit();
      }
      await local?.stop();
    });

    describeReadModelStoreContract('redis', () => createRedisReadModelStore({ url, keyPrefix: testPrefix() }));

    it('keeps the documented key layout, which operators and scripts rely on', async () => {
      const prefix = testPrefix();
      const store = createRedisReadModelStore({ url, keyPrefix: prefix });
      const raw = new Redis(url);
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
      const store = createRedisReadModelStore({ url });
      const raw = new Redis(url);
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
      const store = createRedisReadModelStore({ url, keyPrefix: testPrefix() });
      const raw = new Redis(url);
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
}
