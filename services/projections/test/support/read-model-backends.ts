import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { createMemoryReadModelStore } from '../../src/store/memory-read-model-store';
import type { ReadModelStore } from '@qrshirt/core';
import { createRedisReadModelStore } from '@qrshirt/redis';
import { createSqliteReadModelStore } from '@qrshirt/sqlite';
import type { TestRedis } from '@qrshirt/test-support/vitest';

/** Fresh, empty read models on one adapter, as the processes of one deployment share them. */
export interface ReadModelBackend {
  /** A client of its own onto the same read models, as another process would open. */
  connect(): ReadModelStore;
  /** The raw keys a version still holds, where the adapter can list them (Redis). */
  versionKeys?(projection: string, version: number): Promise<string[]>;
  close(): Promise<void>;
}

export interface BackendKind {
  name: string;
  open(): ReadModelBackend;
}

/** One in-process store: every "process" is handed the same one, as in the embedded mode. */
export const memoryBackend: BackendKind = {
  name: 'memory',
  open() {
    const store = createMemoryReadModelStore();
    return { connect: () => store, close: () => store.close() };
  },
};

/** The embedded mode's file: one store, as one gateway opens it. */
export const sqliteBackend: BackendKind = {
  name: 'sqlite',
  open() {
    const dir = mkdtempSync(join(tmpdir(), 'qrshirt-read-models-'));
    const store = createSqliteReadModelStore({ path: join(dir, 'read-models.sqlite') });
    return {
      connect: () => store,
      async close() {
        await store.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  },
};

/** Every client is its own Redis connection under one fresh key prefix. */
export function redisBackend(redis: TestRedis): BackendKind {
  return {
    name: 'redis',
    open() {
      const prefix = redis.freshPrefix();
      const clients: ReadModelStore[] = [];
      return {
        connect() {
          const store = createRedisReadModelStore({ url: redis.url, keyPrefix: prefix });
          clients.push(store);
          return store;
        },
        async versionKeys(projection, version) {
          const raw = new Redis(redis.url);
          try {
            const keys: string[] = [];
            const match = `${prefix}:${projection}:v${version}:*`;
            for await (const chunk of raw.scanStream({ match, count: 1000 })) keys.push(...(chunk as string[]));
            return keys;
          } finally {
            await raw.quit();
          }
        },
        async close() {
          await Promise.all(clients.map((client) => client.close()));
        },
      };
    },
  };
}
