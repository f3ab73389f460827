import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe } from 'vitest';
import { describeWithRedis } from '@qrshirt/test-support/vitest';
import { describeOutboxStoreContract } from '@qrshirt/core/testing';
import { createRedisOutboxStore } from '@qrshirt/redis';
import { createSqliteOutboxStore } from '@qrshirt/sqlite';

describe('SQLite outbox store', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'qrshirt-outbox-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  // Every test's two clients open one fresh file, as the gateway processes of one host do.
  let files = 0;
  let clients = 0;
  describeOutboxStoreContract('sqlite', () => {
    if (clients++ % 2 === 0) files += 1;
    return createSqliteOutboxStore({ path: path.join(dir, `outbox-${files}.sqlite`) });
  });
});

// Each test's clients share a fresh key prefix, as the gateway processes of one deployment do.
describeWithRedis('Redis outbox store', (redis) => {
  let prefix = '';
  let clients = 0;
  describeOutboxStoreContract('redis', () => {
    if (clients++ % 2 === 0) prefix = redis.freshPrefix();
    return createRedisOutboxStore({ url: redis.url, keyPrefix: prefix });
  });
});
