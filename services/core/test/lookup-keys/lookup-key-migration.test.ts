import { eventMetadata, type EventData, type EventType } from '@qrshirt/contracts';
import { describe, expect, it } from 'vitest';
import {
  createInMemoryEventStore,
  createLookupKeys,
  ensureLookupKeysInUse,
  type EventStore,
  LOOKUP_KEY_COPY_OF,
  LOOKUP_KEYS_STREAM,
  LookupKeysError,
  migrateLookupKeysByCopies,
  type NewEvent,
  StreamNameTakenError,
  unkeyedEmailHash,
  unkeyedWaitlistSignupHash,
  withoutTruncated,
} from '../../src/index';
import { truncatingLog } from '../event-sourcing/truncating-log';

/*
 * The EventStoreDB way of `npm run migrate-lookup-keys` (a copy under the new name, then `$tb` on
 * the original) against a log that truncates and scavenges as EventStoreDB does, and the check a
 * gateway makes before it starts. (The SQLite way, renaming in place, runs as a process in the
 * gateway's tests.)
 */

const at = '2024-06-01T09:00:00.000Z';
const keys = createLookupKeys('the-lookup-key-secret-of-these-tests');
const clock = () => new Date(at);
const event = <T extends EventType>(type: T, data: EventData<T>): NewEvent => ({
  type,
  data,
  metadata: eventMetadata(type),
});
const signup = { email: 'luca@post.example', size: 'M', charityId: 'c-1' };
const old = {
  ada: `email-${unkeyedEmailHash('ada@post.example')}`,
  // Closed and erased before the migration: only the name says whose it was.
  gone: `email-${unkeyedEmailHash('gone@post.example')}`,
  luca: `waitlist-s-1.${unkeyedWaitlistSignupHash(signup)}`,
};
const moved = {
  ada: `email-${keys.email('ada@post.example')}`,
  gone: `email-${keys.email('gone@post.example')}`,
  luca: `waitlist-s-1.${keys.waitlistSignup(signup)}`,
};

/** A log written before lookup keys, beside streams they never named. */
async function setUp() {
  const store = createInMemoryEventStore();
  await store.appendToStream(old.ada, [
    event('EmailReserved', { userId: 'ada', at }),
    event('EmailVerified', { userId: 'ada', via: 'link', at }),
  ]);
  await store.appendToStream(old.gone, [
    event('EmailReserved', { userId: 'gone', at }),
    event('EmailReleased', { userId: 'gone', at }),
  ]);
  await store.appendToStream(old.luca, [
    event('WaitlistJoined', {
      entryId: 'w1',
      shirtId: 's-1',
      name: 'pd1.sealed',
      email: 'pd1.sealed',
      size: 'M',
      charityId: 'c-1',
      at,
    }),
    event('WaitlistEntryConfirmed', { entryId: 'w1', at }),
  ]);
  await store.appendToStream('waitlist-s-1', [
    event('WaitlistJoined', {
      entryId: 'w0',
      shirtId: 's-1',
      name: null,
      email: null,
      size: 'M',
      charityId: 'c-1',
      at,
    }),
  ]);
  await store.appendToStream('user-ada', [
    event('DailySummarySet', { userId: 'ada', enabled: true, via: 'profile', at }),
  ]);
  const log = truncatingLog(store);
  const migrate = () => migrateLookupKeysByCopies({ log, keys });
  return { store, log, migrate };
}

const shape = (events: { type: string; data: unknown }[]) => events.map(({ type, data }) => ({ type, data }));

describe('migrating lookup keys by copies (EventStoreDB)', () => {
  it('copies each stream named by an unkeyed hash to its new name, erased people’s too, and truncates it', async () => {
    const { store, log, migrate } = await setUp();
    const originals = await Promise.all(Object.values(old).map((name) => store.readStream(name)));

    const result = await migrate();
    expect(result).toMatchObject({ streams: 3, movedStreams: 3, copiedEvents: 6 });
    expect([...result.truncatedBefore.keys()].sort()).toEqual(Object.values(old).sort());

    for (const [i, name] of Object.values(moved).entries()) {
      const copies = await log.readLive(name);
      expect(shape(copies)).toEqual(shape(originals[i]!));
      expect(copies.map((copy) => copy.metadata[LOOKUP_KEY_COPY_OF])).toEqual(originals[i]!.map(({ id }) => id));
    }
    for (const name of Object.values(old)) expect(await log.readLive(name)).toEqual([]);
    expect(await log.readLive('waitlist-s-1')).toHaveLength(1);
    expect(await log.readLive('user-ada')).toHaveLength(1);
  });

  it('run again, copies nothing', async () => {
    const { store, migrate } = await setUp();
    await migrate();
    const head = await store.headPosition();
    expect(await migrate()).toMatchObject({ streams: 3, movedStreams: 0, copiedEvents: 0 });
    expect(await store.headPosition()).toBe(head);
  });

  it('gives read models a view of $all that holds each signup once, under its new name', async () => {
    const { store, migrate } = await setUp();
    const view = withoutTruncated(store, (await migrate()).truncatedBefore);
    const joined = (await view.readAll({ eventTypes: ['WaitlistJoined'] })).map((stored) => stored.streamName);
    expect(joined.sort()).toEqual([moved.luca, 'waitlist-s-1'].sort());
    expect((await view.readAll()).filter((stored) => Object.values(old).includes(stored.streamName))).toEqual([]);
  });

  it('killed between a copy and its truncation, or halfway through a copy, finishes without copying twice', async () => {
    const { store, log, migrate } = await setUp();
    log.failNextTruncation();
    await expect(migrate()).rejects.toThrow('connection lost');
    log.failAppendAfter(1);
    await expect(migrate()).rejects.toThrow('connection lost');

    // The second run truncated the first stream before it failed on the next one.
    expect(await migrate()).toMatchObject({ movedStreams: 2, copiedEvents: 3 });
    for (const name of Object.keys(old) as (keyof typeof old)[]) {
      const originals = await store.readStream(old[name]);
      expect((await log.readLive(moved[name])).map((copy) => copy.metadata[LOOKUP_KEY_COPY_OF])).toEqual(
        originals.map(({ id }) => id),
      );
    }
  });

  it('refuses to merge into a stream a process of this version wrote under the new name', async () => {
    const { store, log, migrate } = await setUp();
    await store.appendToStream(moved.ada, [event('EmailReserved', { userId: 'someone-else', at })]);
    await expect(migrate()).rejects.toBeInstanceOf(StreamNameTakenError);
    expect(await log.readLive(old.ada)).toHaveLength(2);
  });
});

describe('the check a process makes before it finds anything by lookup keys', () => {
  const ensure = (eventStore: EventStore, lookupKeys = keys) =>
    ensureLookupKeysInUse({ eventStore, keys: lookupKeys, clock });

  it('refuses a log still naming addresses or signups by unkeyed hashes, and says what to run', async () => {
    const joined = event('WaitlistJoined', {
      entryId: 'w1',
      shirtId: 's-1',
      name: null,
      email: null,
      size: 'M',
      charityId: 'c-1',
      at,
    });
    for (const [name, opener] of [
      [old.ada, event('EmailReserved', { userId: 'ada', at })],
      [old.luca, joined],
    ] as const) {
      const store = createInMemoryEventStore();
      await store.appendToStream(moved.gone, [event('EmailReserved', { userId: 'gone', at })]);
      await store.appendToStream(name, [opener]);
      await expect(ensure(store)).rejects.toThrow(/npm run migrate-lookup-keys/);
      expect(await store.readStream(LOOKUP_KEYS_STREAM)).toEqual([]);
    }
  });

  it('records on a log without old names that its names are keys, and finds the record next time', async () => {
    const store = createInMemoryEventStore();
    await store.appendToStream(moved.ada, [event('EmailReserved', { userId: 'ada', at })]);
    await store.appendToStream('waitlist-s-1', [
      event('DailySummarySet', { userId: 'x', enabled: true, via: 'profile', at }),
    ]);
    await ensure(store);
    expect(shape(await store.readStream(LOOKUP_KEYS_STREAM))).toEqual([
      { type: 'LookupKeysInUse', data: { fingerprint: keys.fingerprint, via: 'start', at } },
    ]);
    // From then on the record is all it reads: an old name written since (an older version's) goes unseen.
    await store.appendToStream(old.ada, [event('EmailReserved', { userId: 'ada', at })]);
    await ensure(store);
    expect(await store.readStream(LOOKUP_KEYS_STREAM)).toHaveLength(1);
  });

  it('refuses to start with another secret than the one the log records', async () => {
    const store = createInMemoryEventStore();
    await ensure(store);
    const other = createLookupKeys('another-secret-that-someone-set-later');
    await expect(ensure(store, other)).rejects.toBeInstanceOf(LookupKeysError);
    await expect(ensure(store, other)).rejects.toThrow(/LOOKUP_KEY_SECRET is not the secret/);
  });
});
