import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { type EventData, type EventType, eventMetadata } from '@qrshirt/contracts';
import {
  createPersonalData,
  type EventStore,
  type NewEvent,
  type PersonalData,
  type StoredEvent,
  withPersonalData,
} from '@qrshirt/core';
import { allProjectors, rebuildProjection } from '@qrshirt/projections';
import { createRedisCredentialsStore, createRedisReadModelStore } from '@qrshirt/redis';
import { createSqliteCredentialsStore, createSqliteEventStore, createSqliteReadModelStore } from '@qrshirt/sqlite';
import { launchProcess, runToEnd, toolCommand } from '@qrshirt/test-support';
import { describeWithRedis } from '@qrshirt/test-support/vitest';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asUser, startTestServer } from './support/test-server';

/*
 * `npm run migrate-personal-data` on a log written before sealing, as its own OS process: the
 * names and emails of every event end up sealed, in the event store's file and in the read
 * models', and the product still shows them to their person.
 */

const AT = '2025-02-03T10:00:00.000Z';
const PEOPLE = [
  'Margarethe Wolkenstein',
  'Oluwaseun Adébáyọ̀',
  'Ingrid Holmqvist',
  'Tomasz Wierzbicki',
  'Aiyana Redcloud',
  'Jean-Baptiste Moreau',
];
const USERS = 240;

const event = <T extends EventType>(type: T, data: EventData<T>): NewEvent => ({
  type,
  data,
  metadata: eventMetadata(type),
});
const personOf = (i: number) => `${PEOPLE[i % PEOPLE.length]} ${i}`;
const emailOf = (i: number) => `${PEOPLE[i % PEOPLE.length]!.split(' ')[0]!.toLowerCase()}.${i}@mailbox.example`;

let dataDir: string;
const files = () => ({
  events: path.join(dataDir, 'events.sqlite'),
  credentials: path.join(dataDir, 'credentials.sqlite'),
  readModels: path.join(dataDir, 'read-models.sqlite'),
});
/** Every clear value written below. */
const clearValues: string[] = [];
let before: StoredEvent[];
/** The data, as stored, of the event that was sealed before the migration. */
let sealedBefore: string;

const migrate = (args: string[] = []) =>
  runToEnd({ name: 'migrate-personal-data', command: toolCommand('migrate-personal-data', args), env: environment() });
// EVENTSTORE_URL and REDIS_URL emptied: a CI that sets them must not send the command elsewhere.
const environment = () => ({ DATA_DIR: dataDir, EVENTSTORE_URL: '', REDIS_URL: '', LOG_LEVEL: 'silent' });

/** Opens the store and keys the way the product does; `use` gets the sealed and the people's view. */
async function withStores<T>(use: (raw: EventStore, people: EventStore, personalData: PersonalData) => Promise<T>) {
  const raw = createSqliteEventStore({ path: files().events, synchronous: 'NORMAL' });
  const credentials = createSqliteCredentialsStore({ path: files().credentials });
  const personalData = createPersonalData({ keys: credentials });
  try {
    return await use(raw, withPersonalData(raw, personalData), personalData);
  } finally {
    await raw.close();
    await credentials.close();
  }
}

/** The bytes on disk of the event store and read models, each file with its write-ahead log. */
async function storedBytes(): Promise<Buffer> {
  const names = [files().events, files().readModels].flatMap((file) => [file, `${file}-wal`]);
  return Buffer.concat(await Promise.all(names.map((file) => readFile(file).catch(() => Buffer.alloc(0)))));
}

/** A query on the event store's file, read-only, closed again at once (it must not hold the file). */
function query<T>(sql: string, pluck = false): T[] {
  const db = new Database(files().events, { readonly: true });
  try {
    const statement = db.prepare(sql);
    return (pluck ? statement.pluck() : statement).all() as T[];
  } finally {
    db.close();
  }
}

const clearValuesIn = (bytes: Buffer) => clearValues.filter((value) => bytes.includes(Buffer.from(value, 'utf8')));

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'qrshirt-migrate-'));
  await withStores(async (raw, people, personalData) => {
    // As the code before sealing wrote them: straight into the store.
    for (let i = 0; i < USERS; i++) {
      const userId = `u-${i}`;
      clearValues.push(personOf(i), emailOf(i));
      const events = [
        event('UserRegistered', {
          userId,
          email: emailOf(i),
          displayName: personOf(i),
          photoURL: null,
          method: 'password',
          at: AT,
        }),
        event('DailySummarySet', { userId, enabled: true, via: 'profile', at: AT }),
      ];
      if (i % 3 === 0) {
        clearValues.push(`${personOf(i)}-Renamed`);
        events.push(event('UserProfileUpdated', { userId, displayName: `${personOf(i)}-Renamed`, at: AT }));
      }
      await raw.appendToStream(`user-${userId}`, events);
    }
    for (let i = 0; i < 20; i++) {
      const entryId = `w-${i}`;
      const name = `Waitlisted ${personOf(i)}`;
      const email = `waiting.${i}@inbox.example`;
      clearValues.push(name, email);
      const placed = { entryId, shirtId: 's-1', size: 'M', charityId: 'c-1', name, email };
      await raw.appendToStream(`waitlist-${entryId}`, [
        event('WaitlistJoined', { ...placed, at: AT }),
        ...(i % 2 === 0
          ? [
              event('WaitlistEntryFulfilled', {
                ...placed,
                fundraiserId: `f-${i}`,
                claimTokenHash: 'c'.repeat(64),
                claimExpiresAt: AT,
                at: AT,
              }),
            ]
          : []),
      ]);
    }
    // Erased before the migration, while their data was still in clear: it must read as null.
    clearValues.push('Erased Beforehand', 'erased.beforehand@mailbox.example');
    await raw.appendToStream('user-erased', [
      event('UserRegistered', {
        userId: 'erased',
        email: 'erased.beforehand@mailbox.example',
        displayName: 'Erased Beforehand',
        photoURL: null,
        method: 'password',
        at: AT,
      }),
    ]);
    await personalData.erase('user-erased');
    // Written after sealing began: already sealed, left exactly as it is.
    await people.appendToStream('user-sealed', [
      event('UserRegistered', {
        userId: 'sealed',
        email: 'already.sealed@mailbox.example',
        displayName: 'Already Sealed',
        photoURL: null,
        method: 'password',
        at: AT,
      }),
    ]);
    before = await raw.readAll();
    sealedBefore = JSON.stringify(before.find((stored) => stored.streamName === 'user-sealed')!.data);
  });
  // The read models the product had projected from that log, clear copies included.
  const store = createSqliteReadModelStore({ path: files().readModels });
  const raw = createSqliteEventStore({ path: files().events, synchronous: 'NORMAL' });
  for (const projector of allProjectors) {
    await rebuildProjection({ eventStore: raw, store, projector, log: pino({ level: 'silent' }) });
  }
  await raw.close();
  await store.close();
});
afterAll(() => rm(dataDir, { recursive: true, force: true }));

describe('npm run migrate-personal-data', () => {
  it('starts from a log and read models holding names and emails in clear', async () => {
    const bytes = await storedBytes();
    expect(clearValuesIn(bytes)).toContain(personOf(1));
    expect(clearValuesIn(bytes)).toContain('Erased Beforehand');
  });

  it('refuses to run while the product has the event store open', async () => {
    const running = createSqliteEventStore({ path: files().events });
    await running.headPosition();
    const refused = await migrate();
    await running.close();
    expect(refused.status).toBe(3);
    expect(refused.stderr).toMatch(/in use by another process: stop the product/);
  });

  it('refuses to run while the product has the read models open', async () => {
    const running = createSqliteReadModelStore({ path: files().readModels });
    await running.ping();
    const refused = await migrate();
    await running.close();
    expect(refused.status).toBe(3);
    expect(refused.stderr).toMatch(/read-models\.sqlite is in use by another process/);
  });

  it('refuses a batch size that is not a whole number', async () => {
    const refused = await migrate(['--batch-size', '0']);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(/--batch-size must be a whole number of at least 1, got 0/);
  });

  it('killed midway, resumes where it stopped on the next run and completes', async () => {
    const stopped = launchProcess({
      name: 'migrate-personal-data',
      command: toolCommand('migrate-personal-data', ['--batch-size', '1']),
      env: environment(),
      onLine(line) {
        if (/events \d+\/\d+, \d+ rewritten/.test(line)) void stopped.kill();
      },
    });
    expect(await stopped.exited).toBe('SIGKILL');
    const [progress] = query<{ position: number; finished_at: number | null }>(
      'SELECT position, finished_at FROM personal_data_migration',
    );
    expect(progress!.finished_at).toBeNull();
    expect(progress!.position).toBeGreaterThan(0);
    expect(progress!.position).toBeLessThan(before.at(-1)!.globalPosition);

    const resumed = await migrate(['--batch-size', '50']);
    expect(resumed.stderr).toContain(`resumed an interrupted run after event ${progress!.position}`);
    expect(resumed.stderr).toMatch(/done/);
    expect(resumed.status).toBe(0);
    // Every clear event (not the sealed one) sealed once, over both runs.
    const clearEvents =
      before.filter((stored) =>
        ['UserRegistered', 'UserProfileUpdated', 'WaitlistJoined', 'WaitlistEntryFulfilled'].includes(stored.type),
      ).length - 1;
    expect(resumed.stderr).toContain(`(${clearEvents} in all)`);
  });

  it('leaves no name or email in clear in any file, write-ahead logs included', async () => {
    expect(clearValuesIn(await storedBytes())).toEqual([]);
    expect(existsSync(`${files().events}-wal`) ? (await readFile(`${files().events}-wal`)).length : 0).toBe(0);
  });

  it('keeps every event where it was, and its person reads it as before; an erased one reads null', async () => {
    await withStores(async (raw, people) => {
      const after = await raw.readAll();
      const identity = ({ id, streamName, revision, globalPosition, type, metadata, recordedAt }: StoredEvent) => ({
        id,
        streamName,
        revision,
        globalPosition,
        type,
        metadata,
        recordedAt,
      });
      expect(after.map(identity)).toEqual(before.map(identity));
      expect(JSON.stringify(after.find((stored) => stored.streamName === 'user-sealed')!.data)).toBe(sealedBefore);

      const revealed = await people.readAll();
      const expected = before.map((stored) =>
        stored.streamName === 'user-erased'
          ? { ...(stored.data as object), email: null, displayName: null }
          : stored.streamName === 'user-sealed'
            ? { ...(stored.data as object), email: 'already.sealed@mailbox.example', displayName: 'Already Sealed' }
            : stored.data,
      );
      expect(revealed.map((stored) => stored.data)).toEqual(expected);
    });
  });

  it('run again, changes nothing and says so', async () => {
    const stored = () => query<string>('SELECT data FROM events ORDER BY global_position', true);
    const first = stored();
    const again = await migrate();
    expect(again.status).toBe(0);
    expect(again.stderr).toContain('the log was migrated already: checked it again');
    expect(again.stderr).toMatch(/ 0 rewritten by this run/);
    expect(stored()).toEqual(first);
  });

  it('serves each person their profile from the migrated data folder', async () => {
    const server = await startTestServer({ dataDir, env: { SEED_CATALOG: 'false' } });
    try {
      expect(await server.api('GET', '/api/user/u-3', asUser('u-3'))).toMatchObject({
        status: 200,
        body: { displayName: `${personOf(3)}-Renamed`, email: emailOf(3) },
      });
      expect(await server.api('GET', '/api/user/u-4', asUser('u-4'))).toMatchObject({
        status: 200,
        body: { displayName: personOf(4), email: emailOf(4) },
      });
    } finally {
      await server.stop();
    }
  });

  it('lets a person be erased afterwards: their data then reads as null', async () => {
    await withStores(async (_raw, people, personalData) => {
      await personalData.erase('user-u-5');
      const [registered] = await people.readStream('user-u-5');
      expect(registered!.data).toMatchObject({ email: null, displayName: null });
      const [other] = await people.readStream('user-u-6');
      expect(other!.data).toMatchObject({ email: emailOf(6), displayName: personOf(6) });
    });
  });
});

// Read models and keys in Redis write its default key prefixes: a server of its own.
describeWithRedis(
  'npm run migrate-personal-data with REDIS_URL and CREDENTIALS_STORE=redis',
  (redis) => {
    let redisDataDir: string;
    const env = () => ({
      DATA_DIR: redisDataDir,
      EVENTSTORE_URL: '',
      REDIS_URL: redis.url,
      CREDENTIALS_STORE: 'redis',
      LOG_LEVEL: 'silent',
    });
    const clear = ['Rosalind Achterberg', 'rosalind@mailbox.example', 'Waitlisted Rosalind', 'rosa.w@inbox.example'];

    /** Every value Redis holds, as text. */
    async function redisText(): Promise<string> {
      const client = new Redis(redis.url);
      try {
        const values: unknown[] = [];
        for (const key of await client.keys('*')) {
          const type = await client.type(key);
          if (type === 'string') values.push(await client.get(key));
          else if (type === 'hash') values.push(await client.hgetall(key));
          else if (type === 'set') values.push(await client.smembers(key));
        }
        return JSON.stringify(values);
      } finally {
        client.disconnect();
      }
    }

    afterAll(() => rm(redisDataDir, { recursive: true, force: true }));

    it('seals the log, rebuilds the Redis read models from it, and the product reads both', async () => {
      redisDataDir = await mkdtemp(path.join(tmpdir(), 'qrshirt-migrate-redis-'));
      const raw = createSqliteEventStore({ path: path.join(redisDataDir, 'events.sqlite'), synchronous: 'NORMAL' });
      await raw.appendToStream('user-rosalind', [
        event('UserRegistered', {
          userId: 'rosalind',
          email: clear[1]!,
          displayName: clear[0]!,
          photoURL: null,
          method: 'password',
          at: AT,
        }),
      ]);
      await raw.appendToStream('waitlist-w-r', [
        event('WaitlistJoined', {
          entryId: 'w-r',
          shirtId: 's-1',
          size: 'M',
          charityId: 'c-1',
          name: clear[2]!,
          email: clear[3]!,
          at: AT,
        }),
      ]);
      const readModels = createRedisReadModelStore({ url: redis.url });
      for (const projector of allProjectors) {
        await rebuildProjection({ eventStore: raw, store: readModels, projector, log: pino({ level: 'silent' }) });
      }
      await readModels.close();
      await raw.close();
      const before = await redisText();
      // The users projection copied the account's name and email.
      expect(before).toContain(clear[0]);
      expect(before).toContain(clear[1]);

      const migrated = await runToEnd({
        name: 'migrate-personal-data',
        command: toolCommand('migrate-personal-data'),
        env: env(),
      });
      expect(migrated.stderr).toContain('read models rebuilt from the migrated log');
      expect(migrated.stderr).toContain('run BGSAVE and BGREWRITEAOF');
      expect(migrated.status).toBe(0);

      const text = await redisText();
      expect(clear.filter((value) => text.includes(value))).toEqual([]);
      const stored = await readFile(path.join(redisDataDir, 'events.sqlite'));
      expect(clear.filter((value) => stored.includes(Buffer.from(value)))).toEqual([]);

      const credentials = createRedisCredentialsStore({ url: redis.url });
      const sealedLog = createSqliteEventStore({ path: path.join(redisDataDir, 'events.sqlite') });
      const people = withPersonalData(sealedLog, createPersonalData({ keys: credentials }));
      expect((await people.readStream('waitlist-w-r'))[0]!.data).toMatchObject({ name: clear[2], email: clear[3] });
      await sealedLog.close();
      await credentials.close();

      const server = await startTestServer({ dataDir: redisDataDir, env: { ...env(), SEED_CATALOG: 'false' } });
      try {
        expect(await server.api('GET', '/api/user/rosalind', asUser('rosalind'))).toMatchObject({
          status: 200,
          body: { displayName: clear[0], email: clear[1] },
        });
      } finally {
        await server.stop();
      }
    });
  },
  { ownServer: true },
);
