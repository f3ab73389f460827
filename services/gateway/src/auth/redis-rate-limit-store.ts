import { Redis } from 'ioredis';
import type { RateLimitStore } from './rate-limit-store';

/*
 * INCR and PEXPIRE in one script: were the process to die between two separate commands, the
 * counter would never expire and the key would stay locked out for good.
 */
const INCREMENT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return count`;

/* DECR on a key whose window ended would create one without a TTL. */
const DECREMENT = `
if redis.call('EXISTS', KEYS[1]) == 1 and tonumber(redis.call('GET', KEYS[1])) > 0 then
  redis.call('DECR', KEYS[1])
end
return 0`;

export interface RedisRateLimitStoreOptions {
  url: string;
  /** Default 'qr:rl'. */
  keyPrefix?: string;
}

/** Counters shared by every gateway process on one Redis; Redis's clock ends the windows. */
export function createRedisRateLimitStore({ url, keyPrefix = 'qr:rl' }: RedisRateLimitStoreOptions): RateLimitStore {
  // A sign-in waits for its counters: when Redis is gone, fail within moments instead of queueing.
  const redis = new Redis(url, { maxRetriesPerRequest: 1 });
  // Connection errors reach each command's caller; without a listener ioredis would also print
  // every reconnection attempt to stderr.
  redis.on('error', () => {});
  const key = (name: string) => `${keyPrefix}:${name}`;
  return {
    async increment(name, windowMs) {
      return Number(await redis.eval(INCREMENT, 1, key(name), String(windowMs)));
    },
    async decrement(name) {
      await redis.eval(DECREMENT, 1, key(name));
    },
    async close() {
      await redis.quit();
    },
  };
}
