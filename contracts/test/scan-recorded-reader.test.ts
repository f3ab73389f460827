import { describe, expect, it } from 'vitest';
import { eventMetadata, readEvent, readScanRecordedData, ScanRecorded } from '../src';

const valid = {
  scanId: 's-1',
  fundraiserId: 'f-1',
  at: '2026-11-26T12:00:00.123Z',
  visitorHash: 'v'.repeat(22),
  addressHash: 'a'.repeat(22),
  bot: false,
  counted: true,
};

/** Each a change to a valid scan: the schema takes some, refuses the others. */
const changes: Record<string, unknown>[] = [
  {},
  { extra: 'dropped' },
  { visitorHash: undefined, addressHash: undefined, bot: undefined },
  { visitorHash: null, addressHash: null },
  { visitorHash: 'v'.repeat(64) },
  { visitorHash: 'v'.repeat(65) },
  { addressHash: '' },
  { addressHash: 7 },
  { bot: true, counted: false },
  { bot: null },
  { bot: 'false' },
  { counted: undefined },
  { counted: 1 },
  { scanId: '' },
  { scanId: 7 },
  { scanId: undefined },
  { fundraiserId: '' },
  { fundraiserId: null },
  { at: '2026-11-26T12:00:00Z' },
  { at: '2026-11-26T12:00:00+01:00' },
  { at: '2024-02-29T00:00:00.000Z' },
  { at: '2025-02-29T00:00:00.000Z' },
  { at: '2026-02-30T12:00:00.000Z' },
  { at: '2026-11-26T24:00:00.000Z' },
  { at: '2026-11-26 12:00:00Z' },
  { at: '+012026-11-26T12:00:00.000Z' },
  { at: 1764158400000 },
  { at: '' },
];

describe('ScanRecorded read by hand', () => {
  it('answers what the schema answers for every scan it takes, and leaves the rest to the schema', () => {
    let taken = 0;
    let refused = 0;
    for (const change of changes) {
      const data = { ...valid, ...change };
      const bySchema = ScanRecorded.schema.safeParse(data);
      const byHand = readScanRecordedData(data);
      if (bySchema.success) {
        taken++;
        expect(byHand, JSON.stringify(change)).toEqual(bySchema.data);
      } else {
        refused++;
        expect(byHand, JSON.stringify(change)).toBeUndefined();
      }
    }
    // The table holds both kinds, or it would test only one side.
    expect(taken).toBeGreaterThan(5);
    expect(refused).toBeGreaterThan(5);
  });

  it('leaves no object but a plain one to the hand reading', () => {
    for (const data of [null, undefined, 'scan', 7, [valid]]) expect(readScanRecordedData(data)).toBeUndefined();
  });

  it('lets readEvent refuse, with the schema words, what the schema refuses, and upcast version 1 first', () => {
    const metadata = eventMetadata('ScanRecorded');
    expect(() => readEvent('ScanRecorded', { ...valid, counted: 'yes' }, metadata)).toThrow(/counted/);
    expect(readEvent('ScanRecorded', valid, metadata)).toEqual({ type: 'ScanRecorded', data: valid });
    const { scanId, fundraiserId, at } = valid;
    expect(readEvent('ScanRecorded', { scanId, fundraiserId, at }, {})).toEqual({
      type: 'ScanRecorded',
      data: { scanId, fundraiserId, at, visitorHash: null, addressHash: null, bot: false, counted: true },
    });
  });
});
