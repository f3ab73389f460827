import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeWithRedis } from '../../../scripts/infra/describe-with-redis';
import { describeCredentialsStoreContract } from '../src/auth/credentials-store.contract';
import { createRedisCredentialsStore } from '../src/auth/redis-credentials-store';
import { createSqliteCredentialsStore } from '../src/auth/sqlite-credentials-store';

describe('SQLite credentials store', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'qrshirt-credentials-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  // Every client opens the same file, as the gateway processes of one host do.
  describeCredentialsStoreContract('sqlite', () => createSqliteCredentialsStore({ path: path.join(dir, 'credentials.sqlite') }));

  it('clears expired records away when new ones of their kind are added, so the file does not grow forever', async () => {
    const file = path.join(dir, 'sweep.sqlite');
    const store = createSqliteCredentialsStore({ path: file });
    const now = Date.parse('2030-01-01T00:00:00Z');
    try {
      await store.createRefreshFamily('old', { uid: 'u', anonymous: false, tokenHash: 'h', expiresAt: now + 1 }, now);
      await store.addOneTimeCode('password-reset', 'old', { uid: 'u', expiresAt: now + 1 }, now);
      await store.addPhoneVerification({ id: 'old', phoneKey: 'p', codeHash: 'c', expiresAt: now + 1, tries: 0 }, now);
      await store.createRefreshFamily('new', { uid: 'u', anonymous: false, tokenHash: 'h', expiresAt: now + 10 }, now + 5);
      await store.addOneTimeCode('password-reset', 'new', { uid: 'u', expiresAt: now + 10 }, now + 5);
      await store.addPhoneVerification({ id: 'new', phoneKey: 'p', codeHash: 'c', expiresAt: now + 10, tries: 0 }, now + 5);
    } finally {
      await store.close();
    }
    const db = new Database(file, { readonly: true });
    try {
      for (const table of ['refresh_families', 'one_time_codes', 'phone_verifications']) {
        expect(db.prepare(`SELECT count(*) AS n FROM ${table}`).get(), table).toEqual({ n: 1 });
      }
    } finally {
      db.close();
    }
  });
});

// Each test's clients share a fresh key prefix, as the gateway processes of one deployment do.
describeWithRedis('Redis credentials store', (redis) => {
  let prefix = '';
  let clients = 0;
  describeCredentialsStoreContract('redis', () => {
    if (clients++ % 2 === 0) prefix = redis.freshPrefix();
    return createRedisCredentialsStore({ url: redis.url, keyPrefix: prefix });
  });
});
