import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeWithRedis } from '@qrshirt/test-support/vitest';
import { describeCredentialsStoreContract } from '@qrshirt/core/testing';
import { createRedisCredentialsStore } from '@qrshirt/redis';
import { createSqliteCredentialsStore } from '@qrshirt/sqlite';
import { DAY } from './support/accounts';

const HOUR = 3_600_000;

describe('SQLite credentials store', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'qrshirt-credentials-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  // Every client opens the same file, as the gateway processes of one host do.
  describeCredentialsStoreContract('sqlite', () =>
    createSqliteCredentialsStore({ path: path.join(dir, 'credentials.sqlite') }),
  );

  it('clears expired records away when new ones of their kind are added, so the file does not grow forever', async () => {
    const file = path.join(dir, 'sweep.sqlite');
    const store = createSqliteCredentialsStore({ path: file });
    const now = Date.parse('2030-01-01T00:00:00Z');
    try {
      await store.createRefreshFamily(
        'old',
        { uid: 'u', anonymous: false, tokenHash: 'h', expiresAt: now + 1, endsAt: now + 1 },
        now,
      );
      await store.addOneTimeCode('password-reset', 'old', { uid: 'u', expiresAt: now + 1 }, now);
      await store.addPhoneVerification({ id: 'old', phoneKey: 'p', codeHash: 'c', expiresAt: now + 1, tries: 0 }, now);
      await store.createRefreshFamily(
        'new',
        { uid: 'u', anonymous: false, tokenHash: 'h', expiresAt: now + 10, endsAt: now + 10 },
        now + 5,
      );
      await store.addOneTimeCode('password-reset', 'new', { uid: 'u', expiresAt: now + 10 }, now + 5);
      await store.addPhoneVerification(
        { id: 'new', phoneKey: 'p', codeHash: 'c', expiresAt: now + 10, tries: 0 },
        now + 5,
      );
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

  it("holds the salt of one day only, which expires at the day's end even if nobody asks again", async () => {
    const keyPrefix = redis.freshPrefix();
    const store = createRedisCredentialsStore({ url: redis.url, keyPrefix });
    const raw = new Redis(redis.url);
    try {
      const now = Date.parse('2030-01-01T18:00:00Z');
      await store.dailySalt('2030-01-01', 'yesterday', now);
      const salt = await store.dailySalt('2030-01-02', 'today', now + 7 * HOUR);
      expect(salt).toBe('today');
      expect(await raw.hgetall(`${keyPrefix}:scan-salts`)).toEqual({ '2030-01-02': 'today' });
      const ttl = await raw.pttl(`${keyPrefix}:scan-salts`);
      expect(ttl).toBeGreaterThan(22 * HOUR);
      expect(ttl).toBeLessThanOrEqual(23 * HOUR);
    } finally {
      await store.close();
      await raw.quit();
    }
  });
});

describe('salts of scan visitors in the SQLite credentials file', () => {
  it("keeps the newest day's salt only: the day before is deleted once the next is asked for", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'qrshirt-credentials-salts-'));
    const file = path.join(dir, 'credentials.sqlite');
    const store = createSqliteCredentialsStore({ path: file });
    try {
      const now = Date.parse('2030-01-01T18:00:00Z');
      await store.dailySalt('2030-01-01', 'yesterday', now);
      await store.dailySalt('2030-01-02', 'today', now + 7 * HOUR);
      const db = new Database(file, { readonly: true });
      expect(db.prepare('SELECT day, salt FROM scan_salts').all()).toEqual([{ day: '2030-01-02', salt: 'today' }]);
      db.close();
    } finally {
      await store.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('a credentials file from before sessions had an end', () => {
  it('gets the column, and its families end 90 days after their next rotation', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'qrshirt-credentials-legacy-'));
    const file = path.join(dir, 'credentials.sqlite');
    const now = Date.parse('2030-01-01T00:00:00Z');
    const legacy = new Database(file);
    legacy.exec(`CREATE TABLE refresh_families (family TEXT PRIMARY KEY, uid TEXT NOT NULL, anonymous INTEGER NOT NULL,
      token_hash TEXT NOT NULL, expires_at INTEGER NOT NULL)`);
    legacy.prepare('INSERT INTO refresh_families VALUES (?, ?, ?, ?, ?)').run('old', 'u', 0, 'h', now + DAY);
    legacy.close();
    const store = createSqliteCredentialsStore({ path: file });
    try {
      const rotated = await store.rotateRefreshToken('old', 'h', { tokenHash: 'h2', expiresAt: now + 30 * DAY }, now);
      expect(rotated).toEqual({
        outcome: 'rotated',
        session: { uid: 'u', anonymous: false, expiresAt: now + 30 * DAY },
      });
      await store.rotateRefreshToken('old', 'h2', { tokenHash: 'h3', expiresAt: now + 55 * DAY }, now + 25 * DAY);
      const last = await store.rotateRefreshToken(
        'old',
        'h3',
        { tokenHash: 'h4', expiresAt: now + 80 * DAY },
        now + 50 * DAY,
      );
      expect(last).toEqual({ outcome: 'rotated', session: { uid: 'u', anonymous: false, expiresAt: now + 80 * DAY } });
      const capped = await store.rotateRefreshToken(
        'old',
        'h4',
        { tokenHash: 'h5', expiresAt: now + 105 * DAY },
        now + 75 * DAY,
      );
      expect(capped).toEqual({
        outcome: 'rotated',
        session: { uid: 'u', anonymous: false, expiresAt: now + 90 * DAY },
      });
    } finally {
      await store.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('a credentials file from before links were bound to their address', () => {
  it('gets the column, and its codes read as bound to nothing', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'qrshirt-credentials-unbound-'));
    const file = path.join(dir, 'credentials.sqlite');
    const now = Date.parse('2030-01-01T00:00:00Z');
    const legacy = new Database(file);
    legacy.exec(`CREATE TABLE one_time_codes (purpose TEXT NOT NULL, code_hash TEXT NOT NULL, uid TEXT NOT NULL,
      expires_at INTEGER NOT NULL, PRIMARY KEY (purpose, code_hash))`);
    legacy.prepare('INSERT INTO one_time_codes VALUES (?, ?, ?, ?)').run('email-verification', 'old', 'u', now + DAY);
    legacy.close();
    const store = createSqliteCredentialsStore({ path: file });
    try {
      expect(await store.takeOneTimeCode('email-verification', 'old', now)).toEqual({ uid: 'u', addressHash: null });
      await store.addOneTimeCode(
        'email-verification',
        'new',
        { uid: 'u', expiresAt: now + DAY, addressHash: 'a' },
        now,
      );
      expect(await store.takeOneTimeCode('email-verification', 'new', now)).toEqual({ uid: 'u', addressHash: 'a' });
    } finally {
      await store.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
