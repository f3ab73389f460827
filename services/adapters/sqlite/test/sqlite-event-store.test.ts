import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { ConcurrencyError, type EventStore, type StoredEvent } from '@qrshirt/core';
import { describeEventStoreContract } from '@qrshirt/core/testing';
import { createSqliteEventStore } from '../src/sqlite-event-store';

const dir = mkdtempSync(join(tmpdir(), 'sqlite-event-store-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const freshPath = (): string => join(dir, `${randomUUID()}.db`);

describeEventStoreContract('sqlite', () => createSqliteEventStore({ path: freshPath() }));

describe('sqlite event store', () => {
  const opened: EventStore[] = [];
  const open = (path: string, pollIntervalMs?: number, gather?: { fromEvents: number; ms: number }): EventStore => {
    const store = createSqliteEventStore({ path, pollIntervalMs, gather });
    opened.push(store);
    return store;
  };
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((store) => store.close()));
  });

  it('commits appends made in the same tick together, and a failing one fails alone', async () => {
    const store = open(freshPath());
    await store.appendToStream('fundraiser-taken', [{ type: 'FundraiserCreated', data: {} }]);

    const good = Array.from({ length: 200 }, (_, i) =>
      store.appendToStream(`fundraiser-${i}`, [{ type: 'DonationRecorded', data: { i } }], {
        expectedRevision: 'no_stream',
      }),
    );
    const stale = store.appendToStream('fundraiser-taken', [{ type: 'DonationRecorded', data: {} }], {
      expectedRevision: 'no_stream',
    });
    const repeatedId = randomUUID();
    const halfBad = store.appendToStream('fundraiser-half', [
      { id: repeatedId, type: 'DonationRecorded', data: { n: 1 } },
      { id: repeatedId, type: 'DonationRecorded', data: { n: 2 } },
    ]);
    const afterTheFailures = store.appendToStream('fundraiser-after', [{ type: 'DonationRecorded', data: {} }]);

    const results = await Promise.all(good);
    await expect(stale).rejects.toBeInstanceOf(ConcurrencyError);
    await expect(halfBad).rejects.toThrow(/the same event id appears twice/);
    await expect(afterTheFailures).resolves.toMatchObject({ nextExpectedRevision: 0 });

    expect(results.every((result) => result.nextExpectedRevision === 0)).toBe(true);
    expect(await store.readStream('fundraiser-half')).toEqual([]);
    expect(await store.readStream('fundraiser-taken')).toHaveLength(1);
    const batch = await store.readAll({ after: 1 });
    expect(batch).toHaveLength(201);
    // One transaction: every event of the group carries the same commit time.
    expect(new Set(batch.map((event) => event.recordedAt.getTime())).size).toBe(1);
    expect(batch.map((event) => event.globalPosition)).toEqual(Array.from({ length: 201 }, (_, i) => i + 2));
  });

  it('recognises a retry where the first attempt wrote, and refuses one whose ids are only partly there', async () => {
    const store = open(freshPath());
    const [a, b] = [randomUUID(), randomUUID()];
    const first = await store.appendToStream('user-1', [{ id: a, type: 'UserRegistered', data: {} }]);
    // 'any' has no position to check against: the stream's end stands in for it.
    expect(await store.appendToStream('user-1', [{ id: a, type: 'UserRegistered', data: {} }])).toEqual(first);

    const partly = store.appendToStream(
      'user-1',
      [
        { id: a, type: 'UserRegistered', data: {} },
        { id: b, type: 'UserSignedIn', data: {} },
      ],
      { expectedRevision: 'no_stream' },
    );
    await expect(partly).rejects.toThrow(/only some of its event ids are already stored/);
    await expect(partly).rejects.not.toBeInstanceOf(ConcurrencyError);

    const twice = store.appendToStream('user-2', [
      { id: b, type: 'UserRegistered', data: {} },
      { id: b, type: 'UserSignedIn', data: {} },
    ]);
    await expect(twice).rejects.toThrow(/appears twice/);
    expect(await store.readAll()).toHaveLength(1);
  });

  it('refuses an append without events and an invalid expected revision', async () => {
    const store = open(freshPath());
    await expect(store.appendToStream('user-1', [])).rejects.toThrow(/no events/);
    await expect(
      store.appendToStream('user-1', [{ type: 'UserRegistered', data: {} }], { expectedRevision: -1 }),
    ).rejects.toThrow(/expectedRevision/);
    expect(await store.headPosition()).toBe(0);
  });

  it('keeps what it acknowledged across close and reopen, creating the folder it needs', async () => {
    const path = join(dir, randomUUID(), 'nested', 'events.db');
    const first = open(path);
    await first.appendToStream('charity-1', [{ type: 'CharityCreated', data: { name: 'Water' } }]);
    await first.appendToStream('charity-1', [{ type: 'CharityUpdated', data: { name: 'Clean water' } }]);
    await first.close();
    expect(existsSync(path)).toBe(true);

    const reopened = open(path);
    expect((await reopened.readStream('charity-1')).map((event) => event.data)).toEqual([
      { name: 'Water' },
      { name: 'Clean water' },
    ]);
    const next = await reopened.appendToStream('charity-1', [{ type: 'CharityUpdated', data: {} }], {
      expectedRevision: 1,
    });
    expect(next).toEqual({ nextExpectedRevision: 2, lastGlobalPosition: 3 });
  });

  it('a subscription sees appends made through another connection to the same file', async () => {
    const path = freshPath();
    const reader = open(path, 20);
    const writer = open(path);
    const received: StoredEvent[] = [];
    const subscription = reader.subscribe({ onEvents: (events) => void received.push(...events) });

    await writer.appendToStream('scans-p0', [{ type: 'ScanRecorded', data: { scanId: 's1' } }]);
    await writer.appendToStream('scans-p1', [{ type: 'ScanRecorded', data: { scanId: 's2' } }]);
    await until(() => received.length === 2);
    expect(received.map((event) => event.data)).toEqual([{ scanId: 's1' }, { scanId: 's2' }]);
    await subscription.stop();
  });

  it('hands its subscriptions what it wrote itself as reading the file back would, without skipping what another connection wrote in between', async () => {
    const path = freshPath();
    // No poll within the test: only this store's own commits wake its subscription.
    const store = open(path, 60_000);
    const other = open(path);
    const meta = { metadata: { schemaVersion: 2 } };
    await store.appendToStream('fundraiser-1', [{ type: 'FundraiserCreated', data: { n: 1 }, ...meta }]);
    const received: StoredEvent[] = [];
    const subscription = store.subscribe({ after: 1, onEvents: (events) => void received.push(...events) });

    await other.appendToStream('fundraiser-2', [{ type: 'FundraiserCreated', data: { n: 2 } }]);
    await store.appendToStream('scans-p0', [
      { type: 'ScanRecorded', data: { n: 3, at: '2026-11-25T12:00:00.000Z' } },
      { type: 'ScanRecorded', data: { n: 4 }, ...meta },
    ]);
    await until(() => received.length === 3);
    expect(received.map((event) => event.data)).toEqual([{ n: 2 }, { n: 3, at: '2026-11-25T12:00:00.000Z' }, { n: 4 }]);
    expect(received).toEqual(await store.readAll({ after: 1 }));

    await store.appendToStream('scans-p0', [{ type: 'ScanRecorded', data: { n: 5 } }]);
    await until(() => received.length === 4);
    expect(received).toEqual(await store.readAll({ after: 1 }));
    await subscription.stop();
  });

  it('under load, gathers the small commits that follow a live batch into one batch', async () => {
    // A second between live reads (more on a busy machine): the ten appends below commit well within it.
    const store = open(freshPath(), 60_000, { fromEvents: 10, ms: 1_000 * TIME_SCALE });
    const batches: number[][] = [];
    const subscription = store.subscribe({
      onEvents: (events) => void batches.push(events.map((event) => event.globalPosition)),
    });
    const scans = (from: number, count: number) =>
      Array.from({ length: count }, (_, n) => ({ type: 'ScanRecorded', data: { n: from + n } }));
    await store.appendToStream('scans-p0', scans(1, 10));
    await until(() => batches.length === 1);
    for (let n = 11; n <= 20; n++) await store.appendToStream('scans-p0', scans(n, 1));
    expect(batches).toHaveLength(1);
    await until(() => batches.length === 2);
    expect(batches[1]).toEqual([11, 12, 13, 14, 15, 16, 17, 18, 19, 20]);
    expect(batches.flat()).toEqual((await store.readAll()).map((event) => event.globalPosition));
    await subscription.stop();
  });

  it('follows the few events of one command at once, without gathering', async () => {
    // Were they gathered, the second would wait an hour, and `until` gives up long before.
    const store = open(freshPath(), 60_000, { fromEvents: 10, ms: 3_600_000 });
    const batches: number[][] = [];
    const subscription = store.subscribe({
      onEvents: (events) => void batches.push(events.map((event) => event.globalPosition)),
    });
    await store.appendToStream('charity-1', [{ type: 'CharitySubmitted', data: {} }]);
    await until(() => batches.length === 1);
    await store.appendToStream('charity-1', [{ type: 'CharityApproved', data: {} }]);
    await until(() => batches.length === 2);
    expect(batches).toEqual([[1], [2]]);
    await subscription.stop();
  });

  it('processes sharing the file take turns: optimistic appends from three of them all land, in order', async () => {
    const path = freshPath();
    const observer = open(path, 20);
    const seen: StoredEvent[] = [];
    const subscription = observer.subscribe({ onEvents: (events) => void seen.push(...events) });

    const exits = await Promise.all([1, 2, 3].map((writer) => runWriterProcess(path, writer, 40)));
    expect(exits).toEqual([0, 0, 0]);

    const stream = await observer.readStream('fundraiser-shared');
    expect(stream.map((event) => event.revision)).toEqual(Array.from({ length: 120 }, (_, i) => i));
    for (const writer of [1, 2, 3]) {
      expect(stream.filter((event) => (event.data as { writer: number }).writer === writer)).toHaveLength(40);
    }
    await until(() => seen.length === 120);
    expect(seen.map((event) => event.id)).toEqual(stream.map((event) => event.id));
    await subscription.stop();
  });

  it('a filtered subscription delivers only its types, live, after a long run of other types', async () => {
    const store = open(freshPath(), 10);
    await store.appendToStream(
      'scans-p0',
      Array.from({ length: 50 }, () => ({ type: 'ScanRecorded', data: {} })),
    );
    const received: StoredEvent[] = [];
    const subscription = store.subscribe({
      eventTypes: ['DonationRecorded'],
      batchSize: 10,
      onEvents: (events) => void received.push(...events),
    });
    // Its first read, over the whole run of scans, comes before the next turn of the event loop.
    await new Promise((resolve) => setImmediate(resolve));
    await store.appendToStream('fundraiser-1', [{ type: 'DonationRecorded', data: { amountCents: 500 } }]);
    await until(() => received.length === 1);
    expect(received[0]).toMatchObject({ globalPosition: 51, type: 'DonationRecorded' });
    await subscription.stop();
  });

  it('pages a stream prefix that holds most of the log as it pages a narrow one', async () => {
    const store = open(freshPath());
    await store.appendToStream('waitlist-a', [{ type: 'WaitlistJoined', data: { n: 'w0' } }]);
    for (let partition = 0; partition < 2; partition++) {
      const scans = Array.from({ length: 6_000 }, (_, n) => ({
        type: 'ScanRecorded',
        data: { n: `p${partition}-${n}` },
      }));
      await store.appendToStream(`scans-p${partition}`, scans);
      await store.appendToStream('waitlist-b', [{ type: 'WaitlistJoined', data: { n: `w${partition + 1}` } }]);
    }
    const { events: newest } = await store.readFiltered({
      streamPrefix: 'scans-',
      direction: 'backwards',
      maxCount: 2,
    });
    expect(newest.map((event) => event.data)).toEqual([{ n: 'p1-5999' }, { n: 'p1-5998' }]);
    const { events: across } = await store.readFiltered({ streamPrefix: 'scans-', cursor: 5_999, maxCount: 3 });
    expect(across.map((event) => event.data)).toEqual([{ n: 'p0-5998' }, { n: 'p0-5999' }, { n: 'p1-0' }]);
    const { events: narrow } = await store.readFiltered({
      streamPrefix: 'waitlist-',
      direction: 'backwards',
      maxCount: 5,
    });
    expect(narrow.map((event) => event.data)).toEqual([{ n: 'w2' }, { n: 'w1' }, { n: 'w0' }]);
  });

  it('close() ends its subscriptions and refuses further calls', async () => {
    const store = createSqliteEventStore({ path: freshPath() });
    const subscription = store.subscribe({ onEvents: () => {} });
    await store.close();
    await expect(subscription.done).resolves.toBeUndefined();
    await expect(store.readAll()).rejects.toThrow(/closed/);
    await expect(store.appendToStream('s', [{ type: 'T', data: {} }])).rejects.toThrow(/closed/);
  });
});

/** Another OS process that appends `count` events, each after reading the stream's revision. */
function runWriterProcess(path: string, writer: number, count: number): Promise<number | null> {
  const storeModule = new URL('../src/sqlite-event-store.ts', import.meta.url).href;
  const script = `
    import { createSqliteEventStore } from ${JSON.stringify(storeModule)};
    const store = createSqliteEventStore({ path: ${JSON.stringify(path)} });
    for (let n = 0; n < ${count}; ) {
      const last = (await store.readStream('fundraiser-shared')).at(-1);
      try {
        await store.appendToStream('fundraiser-shared', [{ type: 'DonationRecorded', data: { writer: ${writer}, n } }], {
          expectedRevision: last ? last.revision : 'no_stream',
        });
        n++;
      } catch (err) {
        if (err.name !== 'ConcurrencyError') throw err;
      }
    }
    await store.close();`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', resolve);
  });
}

/**
 * How much slower than a calm machine this one may be: TEST_TIME_SCALE, as @qrshirt/test-support
 * reads it (this package does not depend on it).
 */
const TIME_SCALE = Math.max(1, Number(process.env.TEST_TIME_SCALE) || 1);

/** Polls `condition` until it holds, for 30 s on a calm machine (test-support's WAIT_MS). */
async function until(condition: () => boolean): Promise<void> {
  const timeoutMs = 30_000 * TIME_SCALE;
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
