import type { ScanRequest } from '@qrshirt/contracts';
import { describe, expect, it } from 'vitest';
import { createInMemoryEventStore } from '../../src/kit/in-memory-event-store';
import {
  ADDRESS_LIMIT,
  createScanCounter,
  rebuildScanCounter,
  scanRecorded,
} from '../../src/fundraisers/scan-counting';

const T0 = Date.parse('2026-03-02T09:00:00.000Z');
const MINUTE = 60_000;
let serial = 0;

/** A request from `visitor` at `address`, `minutes` after T0. */
function scan(minutes: number, visitor = 'v-1', address = 'a-1', more: Partial<ScanRequest> = {}): ScanRequest {
  return {
    scanId: `s-${++serial}`,
    fundraiserId: 'f-1',
    at: new Date(T0 + minutes * MINUTE).toISOString(),
    visitorHash: visitor,
    addressHash: address,
    bot: false,
    ...more,
  };
}

describe('which scan requests count', () => {
  it('counts a visitor once per 30 minutes of one fundraiser', () => {
    const counter = createScanCounter();
    expect([0, 10, 29.9, 30, 45, 60].map((minutes) => counter.count(scan(minutes)))).toEqual([
      true,
      false,
      false,
      true,
      false,
      true,
    ]);
  });

  it('counts two visitors from one address (two user agents) once each, and each fundraiser apart', () => {
    const counter = createScanCounter();
    expect(counter.count(scan(0, 'phone'))).toBe(true);
    expect(counter.count(scan(1, 'laptop'))).toBe(true);
    expect(counter.count(scan(2, 'phone'))).toBe(false);
    expect(counter.count({ ...scan(3, 'phone'), fundraiserId: 'f-2' })).toBe(true);
  });

  it('counts at most 30 scans per address per fundraiser in an hour, then again as the hour moves on', () => {
    const counter = createScanCounter();
    const first = Array.from({ length: ADDRESS_LIMIT + 1 }, (_, i) => counter.count(scan(i, `v-${i}`)));
    expect(first.filter(Boolean)).toHaveLength(ADDRESS_LIMIT);
    expect(first.at(-1)).toBe(false);
    // Another address is its own budget; the same one has room again once its first scan is an hour old.
    expect(counter.count(scan(40, 'v-other', 'a-2'))).toBe(true);
    expect(counter.count(scan(59.9, 'v-late'))).toBe(false);
    expect(counter.count(scan(60, 'v-late'))).toBe(true);
  });

  it('never counts a robot, and a robot takes nothing from the visitor or the address', () => {
    const counter = createScanCounter();
    expect(counter.count(scan(0, 'v-1', 'a-1', { bot: true }))).toBe(false);
    expect(counter.count(scan(1))).toBe(true);
  });

  it('takes a late-stamped repeat (another gateway, another clock) for the repeat it is', () => {
    const counter = createScanCounter();
    expect(counter.count(scan(10))).toBe(true);
    expect(counter.count(scan(-5))).toBe(false);
    expect(counter.count(scan(-25))).toBe(true);
  });

  it('counts a request from a gateway older than counting (no hashes), as every scan counted then', () => {
    const counter = createScanCounter();
    const old = scan(0, 'unused', 'unused', { visitorHash: null, addressHash: null });
    expect([counter.count(old), counter.count({ ...old, scanId: 'again' })]).toEqual([true, true]);
  });
});

describe('the writer memory rebuilt from its stream', () => {
  it('decides as the writer before it did: the decisions of the last hour are remembered', async () => {
    const store = createInMemoryEventStore();
    const before = createScanCounter();
    const requests = [scan(0, 'v-1'), scan(5, 'v-1'), scan(100, 'v-2'), scan(101, 'v-3', 'a-2', { bot: true })];
    const { nextExpectedRevision } = await store.appendToStream(
      'scans-p0',
      requests.map((request) => scanRecorded(request, before.count(request))),
    );
    const after = await rebuildScanCounter(store, 'scans-p0', nextExpectedRevision);
    // v-1 was counted 2 hours before the stream's newest scan: beyond every window, forgotten.
    expect(after.count(scan(120, 'v-1'))).toBe(true);
    expect(after.count(scan(125, 'v-2'))).toBe(false);
    expect(after.count(scan(126, 'v-3', 'a-2'))).toBe(true);
    await store.close();
  });

  it('skips an event it cannot read, as the projectors do, rather than refuse every scan after it', async () => {
    const store = createInMemoryEventStore();
    await store.appendToStream('scans-p0', [
      scanRecorded(scan(0, 'v-1'), true),
      { type: 'ScanRecorded', data: { scanId: 'broken' }, metadata: { schemaVersion: 2 } },
    ]);
    const counter = await rebuildScanCounter(store, 'scans-p0', 1);
    expect(counter.count(scan(1, 'v-1'))).toBe(false);
    await store.close();
  });

  it('reads only up to the revision given: what another writer appended after it is not in it', async () => {
    const store = createInMemoryEventStore();
    await store.appendToStream('scans-p0', [scanRecorded(scan(0, 'v-1'), true)]);
    await store.appendToStream('scans-p0', [scanRecorded(scan(1, 'v-2'), true)]);
    const upToFirst = await rebuildScanCounter(store, 'scans-p0', 0);
    expect(upToFirst.count(scan(2, 'v-2'))).toBe(true);
    expect(upToFirst.count(scan(2, 'v-1'))).toBe(false);
    await store.close();
  });

  it('reads back page by page until an hour before the newest scan, over thousands of events', async () => {
    const store = createInMemoryEventStore();
    // Two and a half hours of scans, one a second, each from its own visitor and address.
    const events = Array.from({ length: 9_000 }, (_, i) => scanRecorded(scan(i / 60, `v-${i}`, `a-${i}`), true));
    const { nextExpectedRevision } = await store.appendToStream('scans-p1', events);
    let read = 0;
    const counting = {
      ...store,
      async readStream(...args: Parameters<typeof store.readStream>) {
        const page = await store.readStream(...args);
        read += page.length;
        return page;
      },
    };
    const counter = await rebuildScanCounter(counting, 'scans-p1', nextExpectedRevision);
    expect(read).toBeLessThan(5_000);
    expect(counter.count(scan(150, 'v-8999', 'a-x'))).toBe(false);
    expect(counter.count(scan(150, 'v-0', 'a-y'))).toBe(true);
    await store.close();
  });
});
