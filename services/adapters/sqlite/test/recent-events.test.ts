import type { StoredEvent } from '@qrshirt/core';
import { describe, expect, it } from 'vitest';
import { createRecentEvents } from '../src/recent-events';
import { serializeAppend } from '../src/sqlite-appender';

/** What the store would answer for an append of `count` scans ending at `lastGlobalPosition`. */
function committed(recent: ReturnType<typeof createRecentEvents>, count: number, lastGlobalPosition: number) {
  const events = Array.from({ length: count }, (_, n) => ({ type: 'ScanRecorded', data: { n } }));
  recent.add(serializeAppend('scans-p0', events, 'any'), {
    written: true,
    recordedAt: 0,
    lastGlobalPosition,
    nextExpectedRevision: lastGlobalPosition - 1,
  });
}

const positions = (batch: { events: StoredEvent[]; scannedTo: number } | undefined) =>
  batch && { positions: batch.events.map((event) => event.globalPosition), scannedTo: batch.scannedTo };

describe('recent events', () => {
  const recent = createRecentEvents(100, ({ globalPosition }) => ({ globalPosition }) as StoredEvent);
  committed(recent, 3, 3);

  it('serves what it holds up to the head read', () => {
    expect(positions(recent.read(0, 3, undefined, 10, false))).toEqual({ positions: [1, 2, 3], scannedTo: 3 });
    expect(positions(recent.read(1, 2, undefined, 10, false))).toEqual({ positions: [2], scannedTo: 2 });
    expect(positions(recent.read(0, 3, undefined, 2, false))).toEqual({ positions: [1, 2], scannedTo: 2 });
  });

  it('serves up to its end when the file holds more, and reads the file for the rest unless this store is awaiting its own answers', () => {
    expect(positions(recent.read(1, 5, undefined, 10, false))).toEqual({ positions: [2, 3], scannedTo: 3 });
    expect(positions(recent.read(3, 5, undefined, 10, true))).toEqual({ positions: [], scannedTo: 3 });
    expect(recent.read(3, 5, undefined, 10, false)).toBeUndefined();
  });

  it('never serves across a position another writer took', () => {
    const gapped = createRecentEvents(100, ({ globalPosition }) => ({ globalPosition }) as StoredEvent);
    committed(gapped, 2, 2);
    committed(gapped, 2, 5);
    expect(gapped.read(2, 5, undefined, 10, true)).toBeUndefined();
    expect(gapped.read(0, 5, undefined, 10, true)).toBeUndefined();
    expect(positions(gapped.read(3, 5, undefined, 10, false))).toEqual({ positions: [4, 5], scannedTo: 5 });
  });
});
