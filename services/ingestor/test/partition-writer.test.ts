import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConcurrencyError, type EventStore } from '@qrshirt/core';
import { createSqliteEventStore } from '@qrshirt/sqlite';
import { ANALYTICS_TOPIC, SCANS_TOPIC } from '@qrshirt/kafka';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MEMBER_KEY, OFFSET_KEY } from '../src/partition-stream';
import { createPartitionWriter } from '../src/partition-writer';

const dir = mkdtempSync(join(tmpdir(), 'partition-writer-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let store: EventStore;
let files = 0;
beforeEach(() => {
  store = createSqliteEventStore({ path: join(dir, `${files++}.db`) });
});
afterEach(() => store.close());

const clock = () => new Date('2026-01-01T00:00:00.000Z');
const writer = (memberId: string, clusterId = 'cluster-1') =>
  createPartitionWriter({
    eventStore: store,
    topic: SCANS_TOPIC,
    partition: 3,
    memberId: () => memberId,
    clusterId,
    clock,
  });
const scan = (offset: number) => ({
  offset: String(offset),
  event: {
    type: 'ScanRecorded' as const,
    data: { scanId: `s-${offset}`, fundraiserId: 'f', at: clock().toISOString() },
  },
});

describe('partition writer', () => {
  it('claims the partition stream, then appends each message once with its offset', async () => {
    const a = writer('member-a');
    await a.claim();
    await a.write([scan(0), scan(1), scan(2)]);
    const stream = await store.readStream('scans-p3');
    expect(stream.map((event) => event.type)).toEqual([
      'PartitionClaimed',
      'ScanRecorded',
      'ScanRecorded',
      'ScanRecorded',
    ]);
    expect(stream.slice(1).map((event) => event.metadata[OFFSET_KEY])).toEqual(['0', '1', '2']);
    expect(stream[3]?.metadata[MEMBER_KEY]).toBe('member-a');
  });

  it('takes every message as new when the stream was written from another Kafka cluster', async () => {
    const before = writer('member-a', 'old-cluster');
    await before.claim();
    await before.write([scan(0), scan(1), scan(2)]);
    // The broker was rebuilt from scratch, the event store kept: offsets start again at 0.
    const after = writer('member-b', 'new-cluster');
    expect(await after.claim()).toEqual({ otherCluster: true });
    const fresh = [{ ...scan(0), event: { ...scan(0).event, data: { ...scan(0).event.data, scanId: 'new-0' } } }];
    expect(after.unwritten(fresh)).toEqual(fresh);
    await after.write(fresh);
    const scans = (await store.readStream('scans-p3')).filter((event) => event.type === 'ScanRecorded');
    expect(scans.map((event) => (event.data as { scanId: string }).scanId)).toEqual(['s-0', 's-1', 's-2', 'new-0']);
    // Once claimed in the new cluster, its offsets count again.
    const restarted = writer('member-c', 'new-cluster');
    expect(await restarted.claim()).toEqual({ otherCluster: false });
    expect(restarted.unwritten([scan(0), scan(1)]).map((message) => message.offset)).toEqual(['1']);
  });

  it('after a restart, skips the messages Kafka redelivers that the stream already holds', async () => {
    const before = writer('member-a');
    await before.claim();
    await before.write([scan(0), scan(1)]);
    // The process died after appending and before committing offset 1: Kafka replays from 0.
    const after = writer('member-b');
    await after.claim();
    const redelivered = [scan(0), scan(1), scan(2)];
    expect(after.unwritten(redelivered).map((message) => message.offset)).toEqual(['2']);
    await after.write(after.unwritten(redelivered));
    const scans = (await store.readStream('scans-p3')).filter((event) => event.type === 'ScanRecorded');
    expect(scans.map((event) => (event.data as { scanId: string }).scanId)).toEqual(['s-0', 's-1', 's-2']);
  });

  it('fences the previous owner off once another member has claimed the partition', async () => {
    const zombie = writer('member-a');
    await zombie.claim();
    await zombie.write([scan(0)]);
    const successor = writer('member-b');
    await successor.claim();
    await expect(zombie.write([scan(1)])).rejects.toBeInstanceOf(ConcurrencyError);
    await successor.write(successor.unwritten([scan(1)]));
    const stream = await store.readStream('scans-p3');
    expect(stream.filter((event) => event.metadata[MEMBER_KEY] === 'member-a')).toHaveLength(1);
    expect(stream.filter((event) => event.type === 'ScanRecorded')).toHaveLength(2);
  });

  describe('past the cap on anonymous events a minute', () => {
    const capped = (topic: string) =>
      createPartitionWriter({
        eventStore: store,
        topic,
        partition: 3,
        memberId: () => 'member-a',
        clusterId: 'cluster-1',
        clock,
        anonymousEventsPerMinute: 2,
      });

    it('tallies the scans past it, the tally carrying its last offset, and a restart skips them', async () => {
      const a = capped(SCANS_TOPIC);
      await a.claim();
      await a.write([0, 1, 2, 3, 4].map(scan));
      const stream = (await store.readStream('scans-p3')).slice(1);
      expect(stream.map((event) => [event.type, event.metadata[OFFSET_KEY]])).toEqual([
        ['ScanRecorded', '0'],
        ['ScanRecorded', '1'],
        ['ScansTallied', '4'],
      ]);
      expect(stream[2]?.data).toMatchObject({ fundraiserId: 'f', requests: 3 });
      const restarted = capped(SCANS_TOPIC);
      await restarted.claim();
      expect(restarted.unwritten([0, 1, 2, 3, 4, 5].map(scan)).map((message) => message.offset)).toEqual(['5']);
    });

    it('samples the analytics past it, and writes nothing for a batch it left out whole', async () => {
      const view = (offset: number) => ({
        offset: String(offset),
        event: { type: 'PageViewed' as const, data: { path: `/p/${offset}`, at: clock().toISOString() } },
      });
      const a = capped(ANALYTICS_TOPIC);
      await a.claim();
      await a.write(Array.from({ length: 60 }, (_, i) => view(i)));
      await a.write(Array.from({ length: 60 }, (_, i) => view(60 + i)));
      await a.write([view(120)]);
      const stream = (await store.readStream('analytics-p3')).slice(1);
      expect(stream.map((event) => [event.metadata[OFFSET_KEY], (event.data as { weight?: number }).weight])).toEqual([
        ['0', undefined],
        ['1', undefined],
        ['101', 100],
      ]);
      expect(a.unwritten([view(120), view(121)]).map((message) => message.offset)).toEqual(['121']);
    });
  });

  describe('counting scans', () => {
    const from = (offset: number, visitorHash: string) => ({
      offset: String(offset),
      event: {
        type: 'ScanRecorded' as const,
        data: {
          scanId: `s-${offset}`,
          fundraiserId: 'f',
          at: clock().toISOString(),
          visitorHash,
          addressHash: 'a',
          bot: false,
        },
      },
    });
    const decisions = async () =>
      (await store.readStream('scans-p3'))
        .filter((event) => event.type === 'ScanRecorded')
        .map((event) => (event.data as { counted: boolean }).counted);

    it('writes whether each scan counted, and a successor remembers what its predecessor counted', async () => {
      const first = writer('member-a');
      await first.claim();
      await first.write(
        [from(0, 'v-1'), from(1, 'v-1'), from(2, 'v-bot')].map((message, i) =>
          i === 2 ? { ...message, event: { ...message.event, data: { ...message.event.data, bot: true } } } : message,
        ),
      );
      const successor = writer('member-b');
      await successor.claim();
      await successor.write([from(3, 'v-1'), from(4, 'v-2')]);
      expect(await decisions()).toEqual([true, false, false, false, true]);
    });

    it('reads a message from an older gateway (no hashes) as counted', async () => {
      const a = writer('member-a');
      await a.claim();
      await a.write([scan(0), scan(1)]);
      expect(await decisions()).toEqual([true, true]);
    });

    it('gives up its claim when an append fails, so the next batch claims and rebuilds first', async () => {
      const real = store;
      let fail = false;
      store = {
        ...real,
        appendToStream: (...args) => (fail ? Promise.reject(new Error('disk full')) : real.appendToStream(...args)),
      };
      const a = writer('member-a');
      await a.claim();
      fail = true;
      await expect(a.write([from(0, 'v-1')])).rejects.toThrow('disk full');
      expect(a.claimed).toBe(false);
      fail = false;
      await a.claim();
      await a.write(a.unwritten([from(0, 'v-1')]));
      expect(await decisions()).toEqual([true]);
      store = real;
    });
  });
});
