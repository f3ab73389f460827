import { decodeMessage, encodeMessage } from '@qrshirt/kafka';
import { describe, expect, it } from 'vitest';

const scan = {
  scanId: 's-1',
  fundraiserId: 'f-1',
  at: '2026-01-01T00:00:00.000Z',
  visitorHash: 'visitor',
  addressHash: 'address',
  bot: false,
};

describe('ingestion messages', () => {
  it('round-trips a scan request and an analytics fact', () => {
    for (const message of [
      { type: 'ScanRecorded' as const, data: scan },
      { type: 'PageViewed' as const, data: { path: '/shop', at: scan.at } },
    ]) {
      expect(decodeMessage(Buffer.from(encodeMessage(message)))).toEqual({ ok: true, message });
    }
  });

  it('reads a scan from a gateway older than counting as one without hashes, which counts as then', () => {
    const old = { scanId: 's-0', fundraiserId: 'f-1', at: scan.at };
    expect(decodeMessage(Buffer.from(JSON.stringify({ type: 'ScanRecorded', data: old })))).toEqual({
      ok: true,
      message: { type: 'ScanRecorded', data: { ...old, visitorHash: null, addressHash: null, bot: false } },
    });
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
