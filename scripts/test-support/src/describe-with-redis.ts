import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe } from 'vitest';
import { type LocalRedis, findRedisServer, startRedis } from './redis';
import { infraRequired } from './require-infra';

export interface TestRedis {
  /** The server's URL; set once the block's tests run, not while they are being collected. */
  readonly url: string;
  /** A key prefix no other test of this run uses. */
  freshPrefix(): string;
}

const reason = 'redis-server not found (run scripts/infra/install-redis.sh)';

/**
 * A describe block with a real Redis: REDIS_URL's server, or a redis-server started for the
 * block. It skips loudly when neither is there, and fails instead when REQUIRE_INFRA names
 * redis, so CI never passes without having run it. `ownServer` ignores REDIS_URL, for tests
 * that write the default key prefix and must not touch a server someone else uses.
 */
export function describeWithRedis(
  name: string,
  body: (redis: TestRedis) => void,
  options: { ownServer?: boolean } = {},
): void {
  const givenUrl = options.ownServer ? undefined : process.env.REDIS_URL;
  const canStart = givenUrl !== undefined || findRedisServer() !== undefined;
  const runPrefix = `qr:test:${randomUUID()}`;
  let prefixes = 0;
  let url = givenUrl ?? '';
  const redis: TestRedis = {
    get url() {
      return url;
    },
    freshPrefix: () => `${runPrefix}:${++prefixes}`,
  };

  if (!canStart && !infraRequired('redis')) {
    console.warn(`[redis] ${name} skipped: ${reason}`);
    describe.skip(`${name} (skipped: ${reason})`, () => body(redis));
    return;
  }

  describe(name, () => {
    let local: LocalRedis | undefined;

    beforeAll(async () => {
      if (!canStart) throw new Error(`REQUIRE_INFRA names redis, but ${reason} and REDIS_URL is not set`);
      if (givenUrl === undefined) {
        local = await startRedis();
        url = local.url;
      }
    });

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

    body(redis);
  });
}
