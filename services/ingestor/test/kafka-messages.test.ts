import { decodeMessage, encodeMessage } from '@qrshirt/kafka';
import { describe, expect, it } from 'vitest';

const scan = { scanId: 's-1', fundraiserId: 'f-1', at: '2026-01-01T00:00:00.000Z' };

describe('ingestion messages', () => {
  it('round-trips a scan and an analytics fact', () => {
    for (const message of [
      { type: 'ScanRecorded' as const, data: scan },
      { type: 'PageViewed' as const, data: { path: '/shop', at: scan.at } },
    ]) {
      expect(decodeMessage(Buffer.from(encodeMessage(message)))).toEqual({ ok: true, message });
    }
  });

  it('names what is wrong with a message it cannot ingest', () => {
    const cases: [Buffer | null, RegExp][] = [
      [null, /empty/],
      [Buffer.from('{not json'), /not JSON/],
      [Buffer.from(JSON.stringify({ type: 'UserRegistered', data: {} })), /not an ingestion message/],
      [
        Buffer.from(JSON.stringify({ type: 'ScanRecorded', data: { ...scan, at: 'yesterday' } })),
        /invalid ScanRecorded/,
      ],
    ];
    for (const [value, reason] of cases) {
      const decoded = decodeMessage(value);
      expect(decoded.ok).toBe(false);
      if (!decoded.ok) expect(decoded.reason).toMatch(reason);
    }
  });
});
