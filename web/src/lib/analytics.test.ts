import {
  type AnalyticsEvent,
  analyticsBatch,
  MAX_ANALYTICS_BATCH,
  MAX_ANALYTICS_BATCH_BYTES,
} from '@qrshirt/contracts';
import { describe, expect, it } from 'vitest';
import { analyticsBatches } from './analytics';

const bodyBytes = (events: AnalyticsEvent[]) => new TextEncoder().encode(JSON.stringify({ events })).length;

describe('analytics batches', () => {
  it('keeps a short queue in one request', () => {
    const events: AnalyticsEvent[] = [
      { type: 'page_view', path: '/shop' },
      { type: 'shirt_clicked', shirt_id: 's-1', shirt_name: 'Curious' },
    ];
    expect(analyticsBatches(events)).toEqual([events]);
  });

  it('splits a queue into bodies the gateway takes, by count and by bytes, in order', () => {
    const many = Array.from({ length: MAX_ANALYTICS_BATCH * 2 + 1 }, (_, i): AnalyticsEvent => ({
      type: 'page_view',
      path: `/shirt/${i}`,
    }));
    expect(analyticsBatches(many).map((batch) => batch.length)).toEqual([MAX_ANALYTICS_BATCH, MAX_ANALYTICS_BATCH, 1]);

    // The longest titles the schema allows, in characters that take 3 bytes each in UTF-8.
    const heavy = Array.from({ length: 40 }, (_, i): AnalyticsEvent => ({
      type: 'page_view',
      path: `/shirt/${i}`,
      title: '界'.repeat(512),
    }));
    const batches = analyticsBatches(heavy);
    expect(batches.length).toBeGreaterThan(1);
    expect(batches.flat()).toEqual(heavy);
    for (const batch of batches) {
      expect(bodyBytes(batch)).toBeLessThanOrEqual(MAX_ANALYTICS_BATCH_BYTES);
      expect(analyticsBatch.safeParse({ events: batch }).success).toBe(true);
    }
    // Each but the last is full: one more event would not have fitted.
    for (const [i, batch] of batches.slice(0, -1).entries()) {
      expect(bodyBytes([...batch, batches[i + 1]![0]!])).toBeGreaterThan(MAX_ANALYTICS_BATCH_BYTES);
    }
  });
});
