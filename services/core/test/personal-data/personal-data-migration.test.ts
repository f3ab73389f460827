import { describe, expect, it } from 'vitest';
import {
  COPY_OF,
  createClearDataSealer,
  createInMemoryEventStore,
  createPersonalData,
  migrateLogByCopies,
  type NewEvent,
  ORIGINAL_RECORDED_AT,
  withoutTruncated,
  withPersonalData,
} from '../../src/index';
import { truncatingLog } from '../event-sourcing/truncating-log';
import { keysInMemory } from './keys-in-memory';

/*
 * The EventStoreDB way of `npm run migrate-personal-data` (sealed copies, then `$tb`), against a
 * log that behaves as EventStoreDB does (truncating-log.ts). (The SQLite way, in place, runs as a
 * process in the gateway's tests.)
 */

const at = '2024-06-01T09:00:00.000Z';
const registered = (userId: string, email: string, displayName: string): NewEvent => ({
  type: 'UserRegistered',
  data: { userId, email, displayName, photoURL: null, method: 'password', at },
});
const renamed = (userId: string, displayName: string): NewEvent => ({
  type: 'UserProfileUpdated',
  data: { userId, displayName, at },
});
const summaries = (userId: string): NewEvent => ({
  type: 'DailySummarySet',
  data: { userId, enabled: true, via: 'profile', at },
});
const joined = (entryId: string, name: string, email: string): NewEvent => ({
  type: 'WaitlistJoined',
  data: { entryId, shirtId: 's-1', name, email, size: 'M', charityId: 'c-1', at },
});
const CLEAR = ['Hedwig Brennan', 'hedwig.brennan@post.example', 'Hedda Brennan', 'Luca Fontana', 'luca@post.example'];

/** A log written before sealing (and one stream after), with its keys. */
async function setUp() {
  const store = createInMemoryEventStore();
  const keys = keysInMemory();
  const personalData = createPersonalData({ keys });
  await store.appendToStream('user-hedwig', [
    registered('hedwig', 'hedwig.brennan@post.example', 'Hedwig Brennan'),
    summaries('hedwig'),
    renamed('hedwig', 'Hedda Brennan'),
  ]);
  await store.appendToStream('waitlist-w1', [joined('w1', 'Luca Fontana', 'luca@post.example')]);
  await store.appendToStream('user-gone', [registered('gone', 'gone@post.example', 'Gone Person')]);
  await personalData.erase('user-gone');
  await withPersonalData(store, personalData).appendToStream('user-sealed', [
    registered('sealed', 'sealed@post.example', 'Sealed Already'),
  ]);
  await store.appendToStream('fundraiser-f1', [
    { type: 'FundraiserShortCodeAssigned', data: { fundraiserId: 'f1', code: 'abc', at } },
  ]);
  const log = truncatingLog(store);
  const migrate = () => migrateLogByCopies({ log, sealer: createClearDataSealer({ keys }) });
  const live = async (streamName: string) => personalData.revealEvents(await log.readLive(streamName));
  return { store, log, personalData, migrate, live };
}

describe('migrating a log by sealed copies (EventStoreDB)', () => {
  it('replaces each stream holding clear data by sealed copies of its whole history, and leaves sealed ones alone', async () => {
    const { store, log, migrate, live } = await setUp();
    const original = await store.readStream('user-hedwig');

    expect(await migrate()).toEqual({
      streams: 4,
      rewrittenStreams: 3,
      copiedEvents: 5,
      completedStreams: 0,
      awaitingScavenge: 4,
      truncatedBefore: new Map([
        ['user-hedwig', 3],
        ['waitlist-w1', 1],
        ['user-gone', 1],
      ]),
    });

    const copies = await log.readLive('user-hedwig');
    expect(copies.map((event) => [event.revision, event.type])).toEqual([
      [3, 'UserRegistered'],
      [4, 'DailySummarySet'],
      [5, 'UserProfileUpdated'],
    ]);
    expect(copies.map((event) => event.metadata)).toEqual(
      original.map((event) => ({ [COPY_OF]: event.id, [ORIGINAL_RECORDED_AT]: event.recordedAt.toISOString() })),
    );
    const originalIds = new Set(original.map((event) => event.id));
    expect(copies.filter((event) => originalIds.has(event.id))).toEqual([]);
    const stored = JSON.stringify(
      await Promise.all(['user-hedwig', 'waitlist-w1', 'user-gone'].map((stream) => log.readLive(stream))),
    );
    expect(CLEAR.filter((value) => stored.includes(value))).toEqual([]);

    expect((await live('user-hedwig')).map((event) => event.data)).toEqual(original.map((event) => event.data));
    expect((await live('waitlist-w1'))[0]!.data).toMatchObject({ name: 'Luca Fontana', email: 'luca@post.example' });
    // Erased before the migration: sealed under a key nobody keeps.
    expect((await live('user-gone'))[0]!.data).toMatchObject({ email: null, displayName: null });
    expect(await store.readStream('user-sealed')).toHaveLength(1);
    expect((await live('user-sealed'))[0]!.data).toMatchObject({ displayName: 'Sealed Already' });
  });

  it('run again, copies nothing; once the server scavenged, nothing awaits a scavenge', async () => {
    const { store, log, migrate } = await setUp();
    await migrate();
    const head = await store.headPosition();

    const again = await migrate();
    expect(again).toMatchObject({ rewrittenStreams: 0, copiedEvents: 0, completedStreams: 0, awaitingScavenge: 4 });
    expect([...again.truncatedBefore.keys()].sort()).toEqual(['user-gone', 'user-hedwig', 'waitlist-w1']);
    expect(await store.headPosition()).toBe(head);
    await log.scavenge();
    expect(await migrate()).toMatchObject({ streams: 4, rewrittenStreams: 0, copiedEvents: 0, awaitingScavenge: 0 });
  });

  it('gives read models a view of $all without the originals a scavenge has yet to delete', async () => {
    const { store, migrate } = await setUp();
    const view = withoutTruncated(store, (await migrate()).truncatedBefore);
    const all = await view.readAll();
    expect(all.filter((event) => event.type === 'UserRegistered').map((event) => event.streamName)).toEqual([
      'user-sealed',
      'user-hedwig',
      'user-gone',
    ]);
    expect(all.filter((event) => event.streamName === 'user-hedwig').map((event) => event.revision)).toEqual([3, 4, 5]);
    // Page by page, as a rebuild reads: a page of hidden originals only is read past, not taken for the end.
    const paged: string[] = [];
    for (let after = 0; ;) {
      const [next] = await view.readAll({ after, maxCount: 1, eventTypes: ['UserRegistered'] });
      if (!next) break;
      paged.push(next.streamName);
      after = next.globalPosition;
    }
    expect(paged).toEqual(['user-sealed', 'user-hedwig', 'user-gone']);
  });

  it('killed between the copies and the truncation, only truncates on the next run', async () => {
    const { store, log, migrate, live } = await setUp();
    log.failNextTruncation();
    await expect(migrate()).rejects.toThrow('connection lost');
    const head = await store.headPosition();

    expect(await migrate()).toMatchObject({ rewrittenStreams: 2, copiedEvents: 2, completedStreams: 1 });
    // Two new copies, for the two streams the failed run had not reached; none for the first one again.
    expect(await store.headPosition()).toBe(head + 2);
    expect((await live('user-hedwig')).map((event) => event.metadata[COPY_OF])).toEqual(
      (await store.readStream('user-hedwig', { maxCount: 3 })).map((event) => event.id),
    );
  });

  it('killed halfway through a stream’s copies, appends only the missing ones on the next run', async () => {
    const { store, log, migrate, live } = await setUp();
    log.failAppendAfter(1);
    await expect(migrate()).rejects.toThrow('connection lost');

    expect(await migrate()).toMatchObject({ rewrittenStreams: 2, completedStreams: 1, copiedEvents: 4 });
    const original = await store.readStream('user-hedwig', { maxCount: 3 });
    const copies = await live('user-hedwig');
    expect(copies.map((event) => event.metadata[COPY_OF])).toEqual(original.map((event) => event.id));
    expect(copies.map((event) => event.data)).toEqual(original.map((event) => event.data));
  });
});
