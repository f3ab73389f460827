import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { type EventData, type EventType, eventMetadata } from '@qrshirt/contracts';
import {
  createLookupKeys,
  createPersonalData,
  type NewEvent,
  seedCatalog,
  seedCharities,
  seedShirts,
  type StoredEvent,
  unkeyedEmailHash,
  unkeyedWaitlistSignupHash,
  type WaitlistSignup,
  withPersonalData,
} from '@qrshirt/core';
import { createRedisCredentialsStore } from '@qrshirt/redis';
import { createSqliteCredentialsStore, createSqliteEventStore } from '@qrshirt/sqlite';
import {
  as,
  launchProcess,
  newClient,
  processCommand,
  runToEnd,
  START_MS,
  TEST_JWT_SECRET,
  TEST_LOOKUP_KEY_SECRET,
  TEST_PASSWORD_SCRYPT_N,
  waitForSms,
  toolCommand,
} from '@qrshirt/test-support';
import { describeWithRedis } from '@qrshirt/test-support/vitest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPasswordHasher } from '../src/auth/passwords';
import { startTestServer, type TestServer } from './support/test-server';

/*
 * `npm run migrate-lookup-keys` on a data folder written before lookup keys, as its own OS
 * process: every stream named by an unkeyed hash of an address takes the name its lookup key
 * gives it, phone identities their keys, and the product then finds everyone as before, links
 * mailed before included.
 */

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const keys = createLookupKeys(TEST_LOOKUP_KEY_SECRET);
const AT = '2025-02-03T10:00:00.000Z';
const event = <T extends EventType>(type: T, data: EventData<T>): NewEvent => ({
  type,
  data,
  metadata: eventMetadata(type),
});

const ada = { uid: 'ada', email: 'Ada.Lovelace@Mailbox.example', password: 'the analytical engine' };
const bob = 'bob.babbage@mailbox.example';
/** Closed and erased before the migration: only the stream name says whose the address was. */
const erased = 'erased.person@mailbox.example';
const phone = { uid: 'phoebe', number: `+1555${String(process.pid % 1000).padStart(3, '0')}4242` };
const shirt = seedShirts[0]!;
const charityId = seedCharities[0]!.charityId;
const size = shirt.sizes[0]!;
const adaSignup: WaitlistSignup = { email: ada.email, size, charityId };
const bobSignup: WaitlistSignup = { email: bob, size, charityId };
/** Accounts enough that a run in batches of one is still under way when it is killed. */
const FILLERS = 300;
const filler = (i: number) => `filler.${i}@mailbox.example`;
const addresses = [ada.email, bob, erased, ...Array.from({ length: FILLERS }, (_, i) => filler(i))];
const signupHashes = [unkeyedWaitlistSignupHash(adaSignup), unkeyedWaitlistSignupHash(bobSignup)];
const oldHashes = [...addresses.map(unkeyedEmailHash), ...signupHashes, sha256(phone.number)];

/** Links the waitlist mailed before the migration: their tokens hold the signup's unkeyed hash. */
const mailed = {
  adaConfirm: `${shirt.shirtId}.${signupHashes[0]}.secret-of-adas-confirmation-link`,
  adaRemove: `${shirt.shirtId}.${signupHashes[0]}.secret-of-adas-removal-link`,
  bobConfirm: `${shirt.shirtId}.${signupHashes[1]}.secret-of-bobs-confirmation-link`,
  bobRemove: `${shirt.shirtId}.${signupHashes[1]}.secret-of-bobs-removal-link`,
};

let dataDir: string;
const file = (name: string) => path.join(dataDir, name);
const environment = () => ({
  DATA_DIR: dataDir,
  // A CI that sets these must not send the command elsewhere.
  EVENTSTORE_URL: '',
  REDIS_URL: '',
  LOG_LEVEL: 'silent',
  LOOKUP_KEY_SECRET: TEST_LOOKUP_KEY_SECRET,
});
const migrate = (args: string[] = []) =>
  runToEnd({ name: 'migrate-lookup-keys', command: toolCommand('migrate-lookup-keys', args), env: environment() });
let before: StoredEvent[];

/** A query on the event store's file, read-only, closed again at once (it must not hold the file). */
function query<T>(sql: string, pluck = false): T[] {
  const db = new Database(file('events.sqlite'), { readonly: true });
  try {
    const statement = db.prepare(sql);
    return (pluck ? statement.pluck() : statement).all() as T[];
  } finally {
    db.close();
  }
}

const streamNames = () => query<string>('SELECT DISTINCT stream_name FROM events', true);
const UNKEYED_NAME = /^email-[0-9a-f]{64}$|\.[0-9a-f]{64}$/;
/** The streams the log named by an unkeyed hash before the migration. */
const unkeyedStreams = () =>
  new Set(before.map((stored) => stored.streamName).filter((name) => UNKEYED_NAME.test(name))).size;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'qrshirt-lookup-keys-'));
  const raw = createSqliteEventStore({ path: file('events.sqlite'), synchronous: 'NORMAL' });
  const credentials = createSqliteCredentialsStore({ path: file('credentials.sqlite') });
  const personalData = createPersonalData({ keys: credentials });
  // As the version before lookup keys wrote it: sealed personal data, unkeyed names.
  const sealed = withPersonalData(raw, personalData);
  try {
    await seedCatalog({ eventStore: raw, clock: () => new Date(AT) });
    const registered = (userId: string, email: string | null, method: 'password' | 'phone') =>
      event('UserRegistered', { userId, email, displayName: userId, photoURL: null, method, at: AT });
    await sealed.appendToStream(`user-${ada.uid}`, [registered(ada.uid, ada.email, 'password')]);
    await raw.appendToStream(`email-${unkeyedEmailHash(ada.email)}`, [
      event('EmailReserved', { userId: ada.uid, at: AT }),
      event('EmailVerified', { userId: ada.uid, via: 'link', at: AT }),
    ]);
    await credentials.setPasswordHash(
      ada.uid,
      await createPasswordHasher({ N: Number(TEST_PASSWORD_SCRYPT_N) }).hash(ada.password),
    );

    await sealed.appendToStream('user-erased', [registered('erased', erased, 'password')]);
    await raw.appendToStream(`email-${unkeyedEmailHash(erased)}`, [
      event('EmailReserved', { userId: 'erased', at: AT }),
      event('EmailReleased', { userId: 'erased', at: AT }),
    ]);
    await personalData.erase('user-erased');

    await sealed.appendToStream(`user-${phone.uid}`, [registered(phone.uid, null, 'phone')]);
    await credentials.linkIdentity('phone', sha256(phone.number), phone.uid);

    const joined = (entryId: string, signup: WaitlistSignup, confirm: string, remove: string) =>
      event('WaitlistJoined', {
        entryId,
        shirtId: shirt.shirtId,
        name: entryId,
        email: signup.email,
        size,
        charityId,
        confirmTokenHash: sha256(confirm),
        removeTokenHash: sha256(remove),
        at: AT,
      });
    await sealed.appendToStream(`waitlist-${shirt.shirtId}.${signupHashes[0]}`, [
      joined('entry-ada', adaSignup, mailed.adaConfirm, mailed.adaRemove),
    ]);
    await sealed.appendToStream(`waitlist-${shirt.shirtId}.${signupHashes[1]}`, [
      joined('entry-bob', bobSignup, mailed.bobConfirm, mailed.bobRemove),
    ]);
    for (let i = 0; i < FILLERS; i++) {
      await raw.appendToStream(`email-${unkeyedEmailHash(filler(i))}`, [
        event('EmailReserved', { userId: `f-${i}`, at: AT }),
      ]);
    }
    before = await raw.readAll();
  } finally {
    await raw.close();
    await credentials.close();
  }
});
afterAll(() => rm(dataDir, { recursive: true, force: true }));

describe('npm run migrate-lookup-keys', () => {
  it('starts from a log naming addresses by unkeyed hashes, which the gateway refuses to start on', async () => {
    expect(streamNames()).toContain(`email-${unkeyedEmailHash(ada.email)}`);
    const gateway = launchProcess({
      name: 'gateway',
      command: processCommand('gateway'),
      env: {
        ...environment(),
        PORT: '0',
        HOST: '127.0.0.1',
        SEED_CATALOG: 'false',
        AUTH_JWT_SECRET: TEST_JWT_SECRET,
        LOG_LEVEL: 'info',
      },
      // Were it to start instead, it would serve until killed: its log says when it does.
      onLine(line) {
        if (line.includes('QR shirt shop listening on')) void gateway.kill();
      },
    });
    // One that neither serves nor stops is stopped too.
    const timer = setTimeout(() => void gateway.kill(), START_MS);
    const status = await gateway.exited;
    clearTimeout(timer);
    expect(status).toBe(2);
    expect(gateway.output.join('\n')).toMatch(/unkeyed hashes.*run `npm run migrate-lookup-keys`/);
  });

  it('refuses to run while the product has the event store open', async () => {
    const running = createSqliteEventStore({ path: file('events.sqlite') });
    await running.headPosition();
    const refused = await migrate();
    await running.close();
    expect(refused.status).toBe(3);
    expect(refused.stderr).toMatch(/in use by another process: stop the product/);
  });

  it('killed midway, renames the rest on the next run, and changes nothing on the one after', async () => {
    const stopped = launchProcess({
      name: 'migrate-lookup-keys',
      command: toolCommand('migrate-lookup-keys', ['--batch-size', '1']),
      env: environment(),
      onLine(line) {
        if (/streams \d+ looked at, [1-9]\d* renamed/.test(line)) void stopped.kill();
      },
    });
    expect(await stopped.exited).toBe('SIGKILL');
    const [progress] = query<{ renamed: number; finished_at: number | null }>(
      'SELECT renamed, finished_at FROM lookup_key_migration',
    );
    expect(progress!.finished_at).toBeNull();
    expect(progress!.renamed).toBeGreaterThan(0);
    expect(progress!.renamed).toBeLessThan(unkeyedStreams());

    const resumed = await migrate(['--batch-size', '50']);
    expect(resumed.stderr).toContain(`resumed an interrupted run, which had renamed ${progress!.renamed}`);
    expect(resumed.stderr).toContain(`(${unkeyedStreams()} in all)`);
    expect(resumed.stderr).toContain('1 phone identities and sign-ins under way given their lookup keys');
    expect(resumed.stderr).toMatch(/done/);
    expect(resumed.status).toBe(0);

    const names = streamNames();
    const again = await migrate();
    expect(again.status).toBe(0);
    expect(again.stderr).toContain('the log was migrated already: looked through it again');
    expect(again.stderr).toMatch(/ 0 renamed by this run/);
    expect(again.stderr).toContain('0 phone identities');
    expect(streamNames()).toEqual(names);
  });

  it('leaves no name matching an unkeyed hash of any address, signup or number, in any file', async () => {
    expect(unkeyedStreams()).toBe(FILLERS + 4);
    for (const name of streamNames()) expect(name).not.toMatch(UNKEYED_NAME);
    expect(streamNames()).toEqual(
      expect.arrayContaining([
        `email-${keys.email(ada.email)}`,
        `email-${keys.email(erased)}`,
        `waitlist-${shirt.shirtId}.${keys.waitlistSignup(bobSignup)}`,
      ]),
    );
    const files = ['events.sqlite', 'events.sqlite-wal', 'credentials.sqlite', 'credentials.sqlite-wal'];
    const bytes = Buffer.concat(
      await Promise.all(files.map((name) => readFile(file(name)).catch(() => Buffer.alloc(0)))),
    );
    expect(oldHashes.filter((hash) => bytes.includes(Buffer.from(hash)))).toEqual([]);
  });

  it('keeps every event where it was: position, revision, id, type, data, metadata and time', () => {
    const stored = query<Record<string, unknown>>(
      'SELECT global_position, stream_revision, event_id, type, data, metadata, recorded_at FROM events ORDER BY global_position',
    );
    const unchanged = before.map((event) => ({
      global_position: event.globalPosition,
      stream_revision: event.revision,
      event_id: event.id,
      type: event.type,
      data: JSON.stringify(event.data),
      metadata: JSON.stringify(event.metadata),
      recorded_at: event.recordedAt.getTime(),
    }));
    expect(stored.slice(0, before.length)).toEqual(unchanged);
    // Then the record that the log's names are lookup keys, which the gateway looks for.
    expect(stored.slice(before.length).map((row) => row.type)).toEqual(['LookupKeysInUse']);
  });

  describe('the product on the migrated data folder', () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer({ dataDir, env: { SEED_CATALOG: 'false' } });
    });
    afterAll(() => server.stop());

    const signIn = () =>
      server.api('POST', '/api/auth/signin', {
        body: { email: ada.email.toLowerCase(), password: ada.password },
        headers: newClient(),
      });

    it('signs in an account by its address, and refuses a new account for it in any case', async () => {
      const signedIn = await signIn();
      expect(signedIn).toMatchObject({ status: 200, body: { user: { uid: ada.uid } } });
      const taken = await server.api('POST', '/api/auth/signup', {
        body: { email: ada.email.toUpperCase(), password: 'another password', displayName: 'Not Ada' },
        headers: newClient(),
      });
      expect(taken).toMatchObject({ status: 409, body: { code: 'email-already-in-use' } });
    });

    it('recognises a repeated waitlist signup, and takes the confirmation and removal links mailed before', async () => {
      const join = { shirtId: shirt.shirtId, selectedSize: size, selectedCharity: charityId, name: 'Ada' };
      const again = await server.api('POST', '/api/waitlist', {
        body: { ...join, email: ada.email.toUpperCase() },
        headers: newClient(),
      });
      expect(again).toMatchObject({ status: 201, body: { data: { id: 'entry-ada' } } });

      const confirmed = await server.api('POST', '/api/waitlist/confirm', { body: { token: mailed.bobConfirm } });
      expect(confirmed).toMatchObject({ status: 200, body: { confirmed: true, shirtId: shirt.shirtId } });
      expect((await server.api('POST', '/api/waitlist/confirm', { body: { token: mailed.bobConfirm } })).status).toBe(
        409,
      );
      const removed = await server.api('POST', '/api/waitlist/remove', { body: { token: mailed.bobRemove } });
      expect(removed).toMatchObject({ status: 200, body: { removed: true } });
      expect((await server.api('POST', '/api/waitlist/confirm', { body: { token: mailed.adaConfirm } })).status).toBe(
        200,
      );
    });

    it('signs in the account of a phone number linked before', async () => {
      const started = await server.api('POST', '/api/auth/phone/start', { body: { phoneNumber: phone.number } });
      expect(started.status).toBe(202);
      const code = /(?<![\d+])(\d{6})(?!\d)/.exec((await waitForSms(dataDir, phone.number)).at(-1)!)![1];
      const confirmed = await server.api('POST', '/api/auth/phone/confirm', {
        body: { verificationId: started.body.verificationId, code },
      });
      expect(confirmed).toMatchObject({ status: 200, body: { user: { uid: phone.uid } } });
    });

    it("exports an account's data with its verified address and the signups made with it", async () => {
      const session = (await signIn()).body;
      const exported = await server.api('GET', `/api/user/${ada.uid}/export`, as(session));
      expect(exported.status).toBe(200);
      expect(exported.body.profile).toMatchObject({ email: ada.email, emailVerified: true });
      expect(exported.body.waitlistEntries.map((entry: { id: string }) => entry.id)).toEqual(['entry-ada']);
      expect(exported.body.events).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ stream: `email-${keys.email(ada.email)}`, type: 'EmailVerified' }),
        ]),
      );
    });

    it('closes an account, freeing its address for a new one', async () => {
      const session = (await signIn()).body;
      const closed = await server.api('DELETE', `/api/user/${ada.uid}`, {
        ...as(session),
        body: { password: ada.password },
      });
      expect(closed.status).toBe(204);
      const fresh = await server.api('POST', '/api/auth/signup', {
        body: { email: ada.email, password: 'a new beginning', displayName: 'Ada again' },
        headers: newClient(),
      });
      expect(fresh.status).toBe(201);
      expect(fresh.body.user.uid).not.toBe(ada.uid);
    });
  });
});

// Phone identities in Redis (CREDENTIALS_STORE=redis) move as they do in the SQLite file.
describeWithRedis(
  'npm run migrate-lookup-keys with CREDENTIALS_STORE=redis',
  (redis) => {
    let redisDataDir: string;
    afterAll(() => rm(redisDataDir, { recursive: true, force: true }));

    it('gives the phone identities in Redis their lookup keys, once', async () => {
      redisDataDir = await mkdtemp(path.join(tmpdir(), 'qrshirt-lookup-keys-redis-'));
      const raw = createSqliteEventStore({ path: path.join(redisDataDir, 'events.sqlite') });
      await raw.appendToStream(`email-${unkeyedEmailHash(bob)}`, [event('EmailReserved', { userId: 'bob', at: AT })]);
      await raw.close();
      const credentials = createRedisCredentialsStore({ url: redis.url });
      const number = '+15555550199';
      await credentials.linkIdentity('phone', sha256(number), 'phoebe');
      const env = {
        DATA_DIR: redisDataDir,
        EVENTSTORE_URL: '',
        REDIS_URL: redis.url,
        CREDENTIALS_STORE: 'redis',
        LOG_LEVEL: 'silent',
        LOOKUP_KEY_SECRET: TEST_LOOKUP_KEY_SECRET,
      };
      try {
        const first = await runToEnd({ name: 'migrate-lookup-keys', command: toolCommand('migrate-lookup-keys'), env });
        expect(first.stderr).toContain('1 phone identities and sign-ins under way given their lookup keys');
        expect(first.status).toBe(0);
        expect(await credentials.findIdentity('phone', sha256(number))).toBeNull();
        expect(await credentials.findIdentity('phone', keys.phone(number))).toBe('phoebe');
        expect(await credentials.identitiesOf('phoebe')).toEqual([{ provider: 'phone', subject: keys.phone(number) }]);
        const second = await runToEnd({
          name: 'migrate-lookup-keys',
          command: toolCommand('migrate-lookup-keys'),
          env,
        });
        expect(second.stderr).toContain('0 phone identities');
      } finally {
        await credentials.close();
      }
    });
  },
  { ownServer: true },
);
