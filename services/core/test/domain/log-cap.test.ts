import type { EventData, ScanRequest } from '@qrshirt/contracts';
import { describe, expect, it } from 'vitest';
import { createInMemoryEventStore } from '../../src/kit/in-memory-event-store';
import { createAnalyticsSampler, createLogCap } from '../../src/ingestion/log-cap';
import { createScanCounter, rebuildScanCounter, scanEvents } from '../../src/fundraisers/scan-counting';

const T0 = Date.parse('2026-03-02T23:59:58.000Z');
let serial = 0;

function scan(seconds: number, visitor: string, fundraiserId = 'f-1', more: Partial<ScanRequest> = {}): ScanRequest {
  return {
    scanId: `s-${++serial}`,
    fundraiserId,
    at: new Date(T0 + seconds * 1000).toISOString(),
    visitorHash: visitor,
    addressHash: `address-of-${visitor}`,
    bot: false,
    ...more,
  };
}

describe('the cap on anonymous events stored one by one', () => {
  it('grants what is left of the minute, then nothing until the next minute of its clock', () => {
    let now = Date.parse('2026-03-02T10:00:30.000Z');
    const cap = createLogCap({ perMinute: 10, clock: () => new Date(now) });
    expect(cap.take(4)).toBe(4);
    expect(cap.take(8)).toBe(6);
    expect(cap.take(1)).toBe(0);
    now += 29_000;
    expect(cap.take(3)).toBe(0);
    now += 1_000;
    expect(cap.take(12)).toBe(10);
  });

  it('samples every hundredth event of each kind past it, standing for a hundred', () => {
    const sampler = createAnalyticsSampler();
    const pageViews = Array.from({ length: 250 }, () => sampler.weightOf('PageViewed'));
    const clicks = Array.from({ length: 99 }, () => sampler.weightOf('ShirtClicked'));
    expect(pageViews.flatMap((weight, index) => (weight === undefined ? [] : [[index, weight]]))).toEqual([
      [99, 100],
      [199, 100],
    ]);
    // Another kind's events are no part of a page view's hundred.
    expect(clicks.every((weight) => weight === undefined)).toBe(true);
    expect(sampler.weightOf('ShirtClicked')).toBe(100);
  });
});

describe('scans past the cap, tallied', () => {
  it('stores the first ones singly, then one tally per fundraiser and day holding the counted ones', () => {
    const counter = createScanCounter();
    const requests = [
      scan(0, 'v-1'),
      scan(0, 'v-2'),
      scan(0, 'v-1'), // a repeat: taken, not counted
      scan(1, 'v-3', 'f-2'),
      scan(1, 'bot', 'f-1', { bot: true }),
      scan(3, 'v-4'), // the next UTC day
      scan(1, 'v-5'),
    ];
    const decisions = requests.map((request) => ({ scan: request, counted: counter.count(request) }));
    const events = scanEvents(decisions, 2);
    expect(events.map(({ event, last }) => [event.type, last])).toEqual([
      ['ScanRecorded', 0],
      ['ScanRecorded', 1],
      ['ScansTallied', 3],
      ['ScansTallied', 5],
      ['ScansTallied', 6],
    ]);
    const tallies = events.slice(2).map(({ event }) => event.data as EventData<'ScansTallied'>);
    expect(tallies).toEqual([
      {
        fundraiserId: 'f-2',
        from: requests[3]!.at,
        at: requests[3]!.at,
        requests: 1,
        counted: [tallied(requests[3]!)],
      },
      {
        fundraiserId: 'f-1',
        from: requests[5]!.at,
        at: requests[5]!.at,
        requests: 1,
        counted: [tallied(requests[5]!)],
      },
      {
        fundraiserId: 'f-1',
        from: requests[2]!.at,
        at: requests[6]!.at,
        requests: 3,
        counted: [tallied(requests[6]!)],
      },
    ]);
  });

  it('is remembered by a rebuilt writer: a visitor counted in a tally is not counted again', async () => {
    const store = createInMemoryEventStore();
    const counter = createScanCounter();
    const first = [scan(0, 'v-1'), scan(0, 'v-2')];
    const events = scanEvents(
      first.map((request) => ({ scan: request, counted: counter.count(request) })),
      0,
    ).map(({ event }) => event);
    const { nextExpectedRevision } = await store.appendToStream('scans-p0', events);
    const rebuilt = await rebuildScanCounter(store, 'scans-p0', nextExpectedRevision);
    expect(rebuilt.count(scan(60, 'v-1'))).toBe(false);
    expect(rebuilt.count(scan(60, 'v-3'))).toBe(true);
    await store.close();
  });
});

const tallied = ({ at, visitorHash, addressHash }: ScanRequest) => ({ at, visitorHash, addressHash });
