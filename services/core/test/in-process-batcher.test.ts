import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import type { EventStore } from '../src/kit/event-store';
import { createInMemoryEventStore } from '../src/kit/in-memory-event-store';
import { createScanStreamWriter, EMBEDDED_SCAN_STREAM } from '../src/fundraisers/scan-stream-writer';
import { analyticsStream, createInProcessBatcher } from '../src/ingestion/in-process-batcher';
import { IngestionUnavailableError } from '../src/ports/ingestion';
import { scanRecorded } from '../src/fundraisers/scan-counting';

let store: EventStore;
afterEach(() => store.close());

/** The embedded process's wiring: the fundraisers' single writer of the scans' stream. */
const scanWriter = (eventStore: EventStore) => createScanStreamWriter(eventStore, EMBEDDED_SCAN_STREAM);

/** A store with its append calls counted: the batcher's whole point is fewer of them. */
function countingStore(): { store: EventStore; appends: () => number } {
  const real = createInMemoryEventStore();
  let appends = 0;
  store = {
    ...real,
    appendToStream(...args) {
      appends += 1;
      return real.appendToStream(...args);
    },
  };
  return { store, appends: () => appends };
}

const scan = (i: number) => ({ scanId: `scan-${i}`, fundraiserId: `f-${i % 3}`, at: '2026-01-01T00:00:00.000Z' });

describe('in-process batcher', () => {
  it('stores a burst of scans in a few appends, each exactly once, in arrival order', async () => {
    const { store, appends } = countingStore();
    const batcher = createInProcessBatcher({ eventStore: store, scans: scanWriter(store), maxBatch: 500 });
    await Promise.all(Array.from({ length: 2000 }, (_, i) => batcher.recordScan(scan(i))));
    const stored = await store.readStream(EMBEDDED_SCAN_STREAM);
    expect(stored.map((event) => (event.data as { scanId: string }).scanId)).toEqual(
      Array.from({ length: 2000 }, (_, i) => `scan-${i}`),
    );
    expect(appends()).toBeLessThanOrEqual(5);
    await batcher.close();
  });

  it('writes the scans that arrived together as soon as they are read, without waiting on a timer', async () => {
    // With timers frozen, a linger timer would never fire: the scans leave on setImmediate.
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    onTestFinished(() => {
      vi.useRealTimers();
    });
    const { store, appends } = countingStore();
    const batcher = createInProcessBatcher({ eventStore: store, scans: scanWriter(store) });
    await Promise.all(Array.from({ length: 50 }, (_, i) => batcher.recordScan(scan(i))));
    expect(appends()).toBe(1);
    expect(await store.readStream(EMBEDDED_SCAN_STREAM)).toHaveLength(50);
    await batcher.close();
  });

  it('resolves only after the append committed', async () => {
    const { store } = countingStore();
    const batcher = createInProcessBatcher({ eventStore: store, scans: scanWriter(store), lingerMs: 20 });
    const pending = batcher.recordScan(scan(1));
    expect(await store.readStream(EMBEDDED_SCAN_STREAM)).toEqual([]);
    await pending;
    expect(await store.readStream(EMBEDDED_SCAN_STREAM)).toHaveLength(1);
    await batcher.close();
  });

  it('refuses facts beyond its bound instead of growing without limit, and keeps the ones it took', async () => {
    const { store } = countingStore();
    const batcher = createInProcessBatcher({
      eventStore: store,
      scans: scanWriter(store),
      maxPending: 100,
      maxBatch: 1000,
      lingerMs: 50,
    });
    const accepted = Array.from({ length: 100 }, (_, i) => batcher.recordScan(scan(i)));
    await expect(batcher.recordScan(scan(100))).rejects.toBeInstanceOf(IngestionUnavailableError);
    await Promise.all(accepted);
    expect(await store.readStream(EMBEDDED_SCAN_STREAM)).toHaveLength(100);
    await batcher.close();
  });

  it('fails every fact of a batch whose append failed, so none is acknowledged', async () => {
    const { store } = countingStore();
    const failing: EventStore = { ...store, appendToStream: () => Promise.reject(new Error('disk full')) };
    const batcher = createInProcessBatcher({ eventStore: failing, scans: scanWriter(failing) });
    const results = await Promise.allSettled([batcher.recordScan(scan(1)), batcher.recordScan(scan(2))]);
    expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected']);
    await batcher.close();
  });

  it('drains what it holds on close, then refuses new facts', async () => {
    const { store } = countingStore();
    const batcher = createInProcessBatcher({ eventStore: store, scans: scanWriter(store), lingerMs: 10_000 });
    const pending = batcher.recordScan(scan(1));
    await batcher.close();
    await pending;
    expect(await store.readStream(EMBEDDED_SCAN_STREAM)).toHaveLength(1);
    await expect(batcher.recordScan(scan(2))).rejects.toBeInstanceOf(IngestionUnavailableError);
  });

  it('files analytics facts under the day they happened', async () => {
    const { store } = countingStore();
    const batcher = createInProcessBatcher({ eventStore: store, scans: scanWriter(store) });
    await batcher.recordAnalytics([
      { type: 'PageViewed', data: { path: '/', at: '2026-02-01T23:59:59.000Z' } },
      { type: 'PageViewed', data: { path: '/shop', at: '2026-02-02T00:00:01.000Z' } },
    ]);
    expect(await store.readStream(analyticsStream('2026-02-01T23:59:59.000Z'))).toHaveLength(1);
    expect(await store.readStream('analytics-2026-02-02')).toHaveLength(1);
    await batcher.close();
  });

  describe('past the cap on anonymous events a minute', () => {
    const at = '2026-01-01T00:00:00.000Z';
    const clock = () => new Date(at);

    it('tallies the scans past it by fundraiser, and every one still counts as it would have', async () => {
      const { store } = countingStore();
      const batcher = createInProcessBatcher({
        eventStore: store,
        scans: scanWriter(store),
        anonymousEventsPerMinute: 5,
        clock,
      });
      const visit = (i: number, visitor = `v-${i}`) => ({
        scanId: `s-${i}`,
        fundraiserId: `f-${i % 2}`,
        at,
        visitorHash: visitor,
        addressHash: `a-${i}`,
      });
      // 40 visitors, then each of them again: 80 requests, 40 counted.
      await Promise.all(Array.from({ length: 80 }, (_, i) => batcher.recordScan(visit(i, `v-${i % 40}`))));
      const stored = await store.readStream(EMBEDDED_SCAN_STREAM);
      const singly = stored.filter((event) => event.type === 'ScanRecorded');
      const tallies = stored.filter((event) => event.type === 'ScansTallied');
      expect(singly).toHaveLength(5);
      expect(tallies.length).toBeGreaterThan(0);
      expect(tallies.length).toBeLessThanOrEqual(4);
      const tallied = tallies.map((event) => event.data as { requests: number; counted: unknown[] });
      expect(tallied.reduce((sum, tally) => sum + tally.requests, 0)).toBe(75);
      const counted =
        singly.filter((event) => (event.data as { counted: boolean }).counted).length +
        tallied.reduce((sum, tally) => sum + tally.counted.length, 0);
      expect(counted).toBe(40);
      await batcher.close();
    });

    it('samples the analytics past it: one in a hundred of each kind stored, weighing a hundred', async () => {
      const { store } = countingStore();
      const batcher = createInProcessBatcher({
        eventStore: store,
        scans: scanWriter(store),
        anonymousEventsPerMinute: 10,
        clock,
      });
      const view = (i: number) => ({ type: 'PageViewed' as const, data: { path: `/p/${i}`, at } });
      await Promise.all(
        Array.from({ length: 5 }, (_, i) =>
          batcher.recordAnalytics(Array.from({ length: 100 }, (_, j) => view(i * 100 + j))),
        ),
      );
      const stored = await store.readStream(analyticsStream(at));
      expect(stored.map((event) => (event.data as { weight?: number }).weight)).toEqual([
        ...Array.from({ length: 10 }, () => undefined),
        100,
        100,
        100,
        100,
      ]);
      expect(stored.slice(10).map((event) => (event.data as { path: string }).path)).toEqual([
        '/p/109',
        '/p/209',
        '/p/309',
        '/p/409',
      ]);
      await batcher.close();
    });
  });

  describe('as the one writer of the scan stream, it decides which scans count', () => {
    const at = '2026-01-01T00:00:00.000Z';
    const from = (visitor: string, i: number) => ({
      scanId: `${visitor}-${i}`,
      fundraiserId: 'f-1',
      at,
      visitorHash: visitor,
      addressHash: 'a-1',
    });
    const decisions = async (store: EventStore) =>
      (await store.readStream(EMBEDDED_SCAN_STREAM)).map((event) => (event.data as { counted: boolean }).counted);

    it('counts a visitor once, across a restart: its memory is rebuilt from the stream', async () => {
      const { store } = countingStore();
      const first = createInProcessBatcher({ eventStore: store, scans: scanWriter(store) });
      await Promise.all([first.recordScan(from('v-1', 1)), first.recordScan(from('v-1', 2))]);
      await first.close();
      const restarted = createInProcessBatcher({ eventStore: store, scans: scanWriter(store) });
      await restarted.recordScan(from('v-1', 3));
      await restarted.recordScan(from('v-2', 1));
      await restarted.close();
      expect(await decisions(store)).toEqual([true, false, false, true]);
    });

    it('sees what another writer appended to its stream before deciding again', async () => {
      const { store } = countingStore();
      const batcher = createInProcessBatcher({ eventStore: store, scans: scanWriter(store) });
      await batcher.recordScan(from('v-1', 1));
      // A second process on the same file counted v-2 meanwhile.
      await store.appendToStream(EMBEDDED_SCAN_STREAM, [scanRecorded({ ...from('v-2', 1), bot: false }, true)]);
      await batcher.recordScan(from('v-2', 2));
      await batcher.close();
      expect(await decisions(store)).toEqual([true, true, false]);
    });

    it('forgets the decisions of an append that failed, so a retried scan is counted', async () => {
      const real = createInMemoryEventStore();
      store = real;
      let failNext = true;
      const flaky: EventStore = {
        ...real,
        appendToStream(...args) {
          if (failNext) {
            failNext = false;
            return Promise.reject(new Error('disk full'));
          }
          return real.appendToStream(...args);
        },
      };
      const batcher = createInProcessBatcher({ eventStore: flaky, scans: scanWriter(flaky) });
      await expect(batcher.recordScan(from('v-1', 1))).rejects.toThrow('disk full');
      await batcher.recordScan(from('v-1', 2));
      await batcher.close();
      expect(await decisions(real)).toEqual([true]);
    });
  });
});
