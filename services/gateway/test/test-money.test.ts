import { adminOverview, fundraiserStats, userStats } from '@qrshirt/contracts';
import { createFundraiser, eventually, runToEnd, toolCommand, WAIT_MS } from '@qrshirt/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AdminTestServer, startAdminServer } from './support/admin';
import { asUser } from './support/test-server';
import { confirmDonation, refunded, sendWebhook, succeeded } from './support/webhooks';

/*
 * Live money and test money through the real embedded process: a processor's test donation (the
 * generic webhook's `live: false`, or no `live`) and the demo processor's are counted beside the
 * money raised, never in it, in every figure an owner or admin reads.
 */

let server: AdminTestServer;
const owner = 'test-money-owner';
let fundraiserId: string;

beforeAll(async () => {
  server = await startAdminServer();
  ({ id: fundraiserId } = await createFundraiser(server.api, asUser(owner)));
});
afterAll(() => server.stop());

async function figures() {
  await server.embedded.projectionsCaughtUp(WAIT_MS);
  const [stats, impact, overview] = await Promise.all([
    server.api('GET', `/api/fundraisers/${fundraiserId}/stats`, asUser(owner)),
    server.api('GET', `/api/user/${owner}/stats`, asUser(owner)),
    server.api('GET', '/api/admin/overview', server.admin),
  ]);
  return {
    stats: fundraiserStats.parse(stats.body),
    impact: userStats.parse(impact.body),
    overview: adminOverview.parse(overview.body),
  };
}

/** What every reader says of the fundraiser's money: live first, then test. */
async function money() {
  const { stats, impact, overview } = await figures();
  const [item] = impact.fundraiserStats;
  return {
    stats: [stats.donations, stats.amountRaised, stats.testDonations, stats.testAmountRaised],
    impact: [impact.totalImpact, impact.testAmountRaised, impact.testDonations],
    item: [item!.donationsInspired, item!.amountRaised, item!.testDonations, item!.testAmountRaised],
    overview: [
      overview.totals.donations,
      overview.totals.amountRaised,
      overview.totals.testDonations,
      overview.totals.testAmountRaised,
    ],
  };
}

const everywhere = (donations: number, raised: number, testDonations: number, testRaised: number) => ({
  stats: [donations, raised, testDonations, testRaised],
  impact: [raised, testRaised, testDonations],
  item: [donations, raised, testDonations, testRaised],
  overview: [donations, raised, testDonations, testRaised],
});

describe('test money beside live money', () => {
  let testDonationId: string;

  it('a live: false completion changes the test figures only', async () => {
    expect(await money()).toEqual(everywhere(0, 0, 0, 0));
    const event = succeeded({ fundraiserId, amount: 40, live: false });
    expect(await sendWebhook(server.api, event)).toMatchObject({ status: 200, body: { outcome: 'confirmed' } });
    testDonationId = event.data.donationId as string;
    expect(await money()).toEqual(everywhere(0, 0, 1, 40));
    const { stats, overview } = await figures();
    // No series, tally or ranking lists it either.
    expect(stats.daily).toEqual([]);
    expect(stats.byCharity).toEqual([expect.objectContaining({ donations: 0, amountRaised: 0 })]);
    expect(overview.topFundraisers).toEqual([]);
  });

  it("a demo processor's donation too", async () => {
    const charged = await server.api('POST', '/api/demo-processor/donations', { body: { fundraiserId, amount: 5 } });
    expect(charged.status).toBe(202);
    const after = await eventually(money, (now) => now.stats[3] === 45);
    expect(after).toEqual(everywhere(0, 0, 2, 45));
  });

  it('a live one changes the live figures only', async () => {
    await confirmDonation(server.api, { fundraiserId, amount: 12.5 });
    expect(await money()).toEqual(everywhere(1, 12.5, 2, 45));
    const { overview } = await figures();
    expect(overview.topFundraisers).toEqual([expect.objectContaining({ id: fundraiserId, amountRaised: 12.5 })]);
  });

  it('a refund of test money takes from the test figures', async () => {
    const refund = refunded({ donationId: testDonationId, fundraiserId, amount: 40 });
    expect(await sendWebhook(server.api, refund)).toMatchObject({ status: 200, body: { outcome: 'refunded' } });
    expect(await money()).toEqual(everywhere(1, 12.5, 1, 5));
  });

  it('replay-donations counts the live money only, as the download and as the command line', async () => {
    const download = await server.api('GET', '/api/admin/replay?groupBy=fundraiser&format=ndjson', server.admin);
    expect(download.status).toBe(200);
    const lines = (download.body as string)
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { fundraiserId: string; donations: number; amountRaised: number });
    expect(lines.find((line) => line.fundraiserId === fundraiserId)).toMatchObject({
      donations: 1,
      amountRaised: 12.5,
    });
    const run = await runToEnd({
      name: 'replay-donations',
      command: toolCommand('replay-donations', ['--group-by', 'fundraiser', '--format', 'csv']),
      env: { DATA_DIR: server.dataDir, EVENTSTORE_URL: '' },
    });
    expect(run.status, run.stderr).toBe(0);
    const row = run.stdout.split('\r\n').find((line) => line.startsWith(`${fundraiserId},`));
    // donations, gross, refunds, disputes, amountRaised, fees, platformFees, net, fundraisers
    expect(row?.split(',').slice(-9)).toEqual(['1', '12.50', '0.00', '0.00', '12.50', '0.00', '0.00', '12.50', '1']);
  });

  it('a completion that does not say live is test money: only a processor that says so moves the figures', async () => {
    expect(await money()).toEqual(everywhere(1, 12.5, 1, 5));
    const { live: _live, ...unsaid } = succeeded({ fundraiserId, amount: 1000 }).data;
    const answer = await sendWebhook(server.api, { type: 'donation.succeeded', data: unsaid });
    expect(answer).toMatchObject({ status: 200, body: { outcome: 'confirmed' } });
    expect(await money()).toEqual(everywhere(1, 12.5, 2, 1005));
  });
});
