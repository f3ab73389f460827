import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';
import { ReadModelValueError, ReadModelVersionError } from '@qrshirt/projections';
import type { ProjectionStore, ReadModelStore } from '@qrshirt/projections';
import { ACTIVATE, COMMIT, CREATE_VERSION, READ_HASHES, READ_MEMBERS, READ_STRINGS } from './redis-read-model-scripts';

export interface RedisReadModelStoreOptions {
  url: string;
  /** Default 'qr:rm'. */
  keyPrefix?: string;
}

/** Keys UNLINKed per SCAN step when dropping a version: big enough to be quick, small enough
 *  not to stall Redis. */
const DROP_CHUNK = 1000;

/**
 * Read models in Redis. Keys: `<prefix>:<projection>:active` (the active version, 1 when
 * missing), `:versions` (the last version created), `:v<N>:cp` (checkpoint) and `:v<N>:d:<key>`
 * (data). Commits and pointer-following reads are Lua scripts, so each resolves the pointer and
 * touches the data in one atomic step.
 */
export function createRedisReadModelStore(opts: RedisReadModelStoreOptions): ReadModelStore {
  // A command fails after one reconnection attempt rather than waiting in the offline queue
  // through ioredis' 20 (about 10 s): a query while Redis is down answers 503 at once, and a
  // projector's last commit on SIGTERM gives up within its shutdown deadline (the runner retries
  // a failed commit while it runs; a commit is one atomic script, so it lands whole or not at all).
  const redis = new Redis(opts.url, { maxRetriesPerRequest: 1 });
  // Connection errors reach every command's caller (and GET /readyz); without a listener ioredis
  // would also print each reconnection attempt to stderr.
  redis.on('error', () => {});
  const prefix = opts.keyPrefix ?? 'qr:rm';
  const base = (name: string) => `${prefix}:${name}`;
  const script = (lua: string) => defineScript(redis, lua);
  const commitScript = script(COMMIT);
  const readStrings = script(READ_STRINGS);
  const readHashes = script(READ_HASHES);
  const readMembers = script(READ_MEMBERS);
  const createVersionScript = script(CREATE_VERSION);
  const activateScript = script(ACTIVATE);

  async function activeVersion(name: string): Promise<number> {
    return Number((await redis.get(`${base(name)}:active`)) ?? 1);
  }

  function projection(name: string, pinned?: number): ProjectionStore {
    const target = [base(name), pinned === undefined ? '' : String(pinned)];
    const strings = async (suffixes: readonly string[]) =>
      suffixes.length === 0 ? [] : asStrings(await readStrings([...target, ...suffixes]));
    const hashes = async (keys: readonly string[]) =>
      keys.length === 0 ? [] : asHashes(await readHashes([...target, ...keys.map((key) => `d:${key}`)]));

    return {
      async commit(from, to, ops) {
        const reply = await commitScript([
          ...target,
          from === null ? '' : String(from),
          String(to),
          JSON.stringify(ops),
        ]);
        return reply === 1;
      },
      async checkpoint() {
        const [checkpoint] = await strings(['cp']);
        return checkpoint == null ? null : Number(checkpoint);
      },
      async get(key) {
        const [value] = await strings([`d:${key}`]);
        return value ?? null;
      },
      async mget(keys) {
        return strings(keys.map((key) => `d:${key}`));
      },
      async hgetall(key) {
        const [hash] = await hashes([key]);
        return hash ?? {};
      },
      hgetallMany: hashes,
      async smembers(key) {
        return asStringList(await readMembers([...target, `d:${key}`]));
      },
    };
  }

  return {
    projection,
    activeVersion,
    async createVersion(name) {
      return Number(await createVersionScript([base(name)]));
    },
    async activate(name, version) {
      await activateScript([base(name), String(version)]);
    },
    async dropVersion(name, version) {
      // Not atomic with a concurrent activate; switching and dropping is one operator's sequence.
      if (version === (await activeVersion(name))) {
        throw new ReadModelVersionError(`version ${version} of projection ${name} is active`);
      }
      if (!Number.isSafeInteger(version) || version < 1) return;
      const pattern = `${escapeGlob(base(name))}:v${version}:*`;
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', DROP_CHUNK);
        if (keys.length > 0) await redis.unlink(...keys);
        cursor = next;
      } while (cursor !== '0');
    },
    async ping() {
      await redis.ping();
    },
    async close() {
      // QUIT waits for a connection; with Redis away there is nothing to flush, so just let go.
      if (redis.status !== 'ready') return redis.disconnect();
      await redis.quit();
    },
  };
}

/** EVALSHA, loading the script with EVAL only when Redis does not know it (first use, restart). */
function defineScript(redis: Redis, lua: string) {
  const sha = createHash('sha1').update(lua).digest('hex');
  return async (args: readonly string[]): Promise<unknown> => {
    try {
      try {
        return await redis.evalsha(sha, 0, ...args);
      } catch (error) {
        if (!(error instanceof Error && error.message.startsWith('NOSCRIPT'))) throw error;
        return await redis.eval(lua, 0, ...args);
      }
    } catch (error) {
      throw toStoreError(error);
    }
  };
}

function toStoreError(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  const [code, ...rest] = error.message.split(' ');
  if (code === 'QRVALUE') return new ReadModelValueError(rest.join(' '));
  if (code === 'QRVERSION') return new ReadModelVersionError(rest.join(' '));
  return error;
}

function escapeGlob(text: string): string {
  return text.replace(/[*?[\]\\]/g, '\\$&');
}

function unexpected(reply: unknown): Error {
  return new Error(`unexpected reply from Redis: ${JSON.stringify(reply)}`);
}

function asStrings(reply: unknown): (string | null)[] {
  if (!Array.isArray(reply)) throw unexpected(reply);
  return reply.map((value) => (typeof value === 'string' ? value : null));
}

function asStringList(reply: unknown): string[] {
  if (!Array.isArray(reply) || !reply.every((value) => typeof value === 'string')) throw unexpected(reply);
  return reply;
}

function asHashes(reply: unknown): Record<string, string>[] {
  if (!Array.isArray(reply)) throw unexpected(reply);
  return reply.map((flat) => {
    const list = asStringList(flat);
    // fromEntries keeps a field named __proto__ as an own property.
    return Object.fromEntries(list.flatMap((field, i) => (i % 2 === 0 ? [[field, list[i + 1] ?? '']] : [])));
  });
}
