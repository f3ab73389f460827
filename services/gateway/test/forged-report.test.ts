import { adminOverview, fundraiserStats, userStats } from '@qrshirt/contracts';
import { replayDonations, replayGroupings } from '@qrshirt/projections';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AdminTestServer, startAdminServer } from './support/admin';
import { createFundraiser, scanner, WAIT_MS } from '@qrshirt/test-support';
import { asUser, userToken } from './support/test-server';
import { donateConfirmed } from './support/webhooks';

/*
 * POST /donate is open to anyone, with any amount the contract allows: what it reports must never
 * reach a figure that says money was raised. Every reader of confirmed money is compared before
 * and after a forged report: the owner's stats and per-day series, the user's impact, the admin
 * overview, the replay (the admin download in every grouping, and the function the command runs).
 */

let server: AdminTestServer;
let fundraiserId: string;
const owner = 'forgery-target';
const ownerToken = { token: userToken(owner) };

beforeAll(async () => {
  server = await startAdminServer();
  ({ id: fundraiserId } = await createFundraiser(server.api, asUser(owner)));
  await server.api('POST', `/api/fundraisers/${fundraiserId}/scan`, { headers: scanner(0) });
  await donateConfirmed(server.api, fundraiserId, 10);
  await donateConfirmed(server.api, fundraiserId, 2.5);
});
afterAll(() => server.stop());

/** What every confirmed-money reader answers now. */
async function confirmedFigures() {
  await server.embedded.projectionsCaughtUp(WAIT_MS);
  const [stats, impact, overview] = await Promise.all([
    server.api('GET', `/api/fundraisers/${fundraiserId}/stats`, ownerToken),
    server.api('GET', `/api/user/${owner}/stats`, ownerToken),
    server.api('GET', '/api/admin/overview?top=50', server.admin),
  ]);
  const downloads: Record<string, string> = {};
  for (const groupBy of replayGroupings) {
    for (const format of ['csv', 'ndjson']) {
      const answer = await server.api('GET', `/api/admin/replay?groupBy=${groupBy}&format=${format}`, server.admin);
      expect(answer.status).toBe(200);
      downloads[`${groupBy}.${format}`] = answer.body as string;
    }
  }
  const replayed = await replayDonations({ eventStore: server.embedded.eventStore, groupBy: 'fundraiser' });
  const { amountReported, ...confirmedStats } = fundraiserStats.parse(stats.body);
  const { totalReported, ...confirmedImpact } = userStats.parse(impact.body);
  return {
    amountReported,
    totalReported,
    confirmed: {
      stats: confirmedStats,
      impact: {
        ...confirmedImpact,
        fundraiserStats: confirmedImpact.fundraiserStats.map(({ amountReported: _reported, ...item }) => item),
      },
      overview: adminOverview.parse(overview.body),
      downloads,
      replay: { rows: replayed.rows, total: replayed.total },
    },
  };
}

describe('a forged donation report', () => {
  it('changes no confirmed figure anywhere: stats, per-day series, impact, overview, replay', async () => {
    const before = await confirmedFigures();
    expect(before.confirmed.stats).toMatchObject({ scans: 1, donations: 2, amountRaised: 12.5 });
    expect(before.confirmed.stats.daily).toEqual([
      { date: expect.any(String), scans: 1, scanRequests: 1, donations: 2, amountRaised: 12.5 },
    ]);
    expect(before.confirmed.overview.totals).toMatchObject({ donations: 2, amountRaised: 12.5 });
    expect(before.confirmed.replay.total).toMatchObject({ donations: 2, amountCents: 1250 });

    for (const [amount, headers] of [
      [1_000_000, {}],
      ['"999999.99"', {}],
      [250_000, { 'Idempotency-Key': 'forged-1' }],
    ] as const) {
      const forged = await server.api('POST', `/api/fundraisers/${fundraiserId}/donate`, {
        ...server.anonymous,
        body: { amount, source: 'widget' },
        headers: { ...server.anonymous.headers, ...headers },
      });
      expect(forged.status).toBe(201);
    }

    const after = await confirmedFigures();
    expect(after.confirmed).toEqual(before.confirmed);
    // It shows only as what it is: reported, awaiting a confirmation that will not come.
    const cents = (dollars: number) => Math.round(dollars * 100);
    expect(cents(after.amountReported)).toBe(cents(before.amountReported) + 100_000_000 + 99_999_999 + 25_000_000);
    expect(after.totalReported).toBe(after.amountReported);
  });
});
