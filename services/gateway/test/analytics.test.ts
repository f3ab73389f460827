import { MAX_ANALYTICS_BATCH } from '@qrshirt/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support/test-server';

let server: TestServer;
const now = new Date('2026-05-04T12:00:00.000Z');
beforeAll(async () => {
  server = await startTestServer({ clock: () => now });
});
afterAll(() => server.stop());

describe('POST /api/analytics', () => {
  it('appends page views and the spec events to the day stream, stamped by the server', async () => {
    const events = [
      { type: 'page_view', path: '/shop' },
      { type: 'shirt_clicked', shirt_id: 's-1', shirt_name: 'Curious' },
      {
        type: 'waitlist_signup',
        charity_id: 'c-1',
        charity_name: 'Water',
        size: 'M',
        shirt_id: 's-1',
        shirt_name: 'Curious',
      },
      { type: 'donation', fundraiser_id: 'f-1', amount: 12.5, currency: 'USD' },
    ];
    const answer = await server.api('POST', '/api/analytics', { body: { events } });
    expect(answer).toMatchObject({ status: 202, body: { accepted: 4 } });
    const stored = await server.embedded.eventStore.readStream('analytics-2026-05-04');
    expect(stored.map((event) => event.type)).toEqual([
      'PageViewed',
      'ShirtClicked',
      'WaitlistSignup',
      'DonationCompleted',
    ]);
    expect(stored[1]?.data).toEqual({ shirt_id: 's-1', shirt_name: 'Curious', at: now.toISOString() });
  });

  it('refuses unknown types, wrong currencies, empty and oversized batches before storing anything', async () => {
    const headBefore = await server.embedded.eventStore.headPosition();
    const bad = [
      { events: [] },
      { events: [{ type: 'mystery' }] },
      { events: [{ type: 'donation', fundraiser_id: 'f', amount: 5, currency: 'EUR' }] },
      { events: [{ type: 'donation', fundraiser_id: 'f', amount: -5, currency: 'USD' }] },
      { events: Array.from({ length: MAX_ANALYTICS_BATCH + 1 }, () => ({ type: 'page_view', path: '/' })) },
      { events: [{ type: 'page_view', path: '/' }, { type: 'shirt_clicked' }] },
    ];
    for (const body of bad) {
      const answer = await server.api('POST', '/api/analytics', { body });
      expect(answer.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(answer.body.error).toEqual(expect.any(String));
    }
    expect(await server.embedded.eventStore.headPosition()).toBe(headBefore);
  });
});
