import { fundraiserStats, userStats } from '@qrshirt/contracts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type LiveStream, openLiveStream } from './support/live-stream';
import { createFundraiser, eventually, scanner, WAIT_MS } from '@qrshirt/test-support';
import { anonymousToken, asUser, startTestServer, type TestServer, userToken } from './support/test-server';
import { confirmDonation } from './support/webhooks';

let server: TestServer;
let fundraiserId: string;
const open: LiveStream[] = [];
const owner = { token: userToken('live-owner'), headers: { 'x-user-id': 'live-owner' } };

beforeAll(async () => {
  server = await startTestServer();
  ({ id: fundraiserId } = await createFundraiser(server.api, asUser('live-owner')));
  await server.embedded.projectionsCaughtUp(WAIT_MS);
});
afterEach(() => {
  for (const stream of open.splice(0)) stream.close();
});
afterAll(() => server.stop());

async function live(path: string, options = {}): Promise<LiveStream> {
  const stream = await openLiveStream(server.url, path, options);
  open.push(stream);
  return stream;
}

describe('GET /api/fundraisers/{id}/live', () => {
  it('sends the figures at once, then again within seconds of each scan and donation', async () => {
    const stream = await live(`/api/fundraisers/${fundraiserId}/live`, owner);
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(stream.headers.get('cache-control')).toBe('no-cache, no-transform');
    const first = fundraiserStats.parse(await stream.next(() => true));

    const scanned = await server.api('POST', `/api/fundraisers/${fundraiserId}/scan`, { headers: scanner(1) });
    expect(scanned.status).toBe(202);
    const afterScan = await stream.next((stats) => stats.scans === first.scans + 1);
    expect(afterScan).toEqual((await server.api('GET', `/api/fundraisers/${fundraiserId}/stats`, owner)).body);

    // The page's report shows as awaiting confirmation; the processor's confirmation makes it raised.
    const reported = await server.api('POST', `/api/fundraisers/${fundraiserId}/donate`, { body: { amount: 7.5 } });
    const afterReport = await stream.next((stats) => stats.amountReported === first.amountReported + 7.5);
    expect(afterReport).toMatchObject({ donations: first.donations, amountRaised: first.amountRaised });
    await confirmDonation(server.api, { fundraiserId, amount: 7.5, reportId: reported.body.id });
    const afterDonation = await stream.next((stats) => stats.donations === first.donations + 1);
    expect(afterDonation).toMatchObject({
      scans: first.scans + 1,
      amountRaised: first.amountRaised + 7.5,
      amountReported: first.amountReported,
    });
  });

  it('is the owner’s only: 401 without a token, 403 for others and anonymous sessions, 404 for an unknown id', async () => {
    const path = `/api/fundraisers/${fundraiserId}/live`;
    expect(await answerOf(path, {})).toEqual({
      status: 401,
      body: { error: 'Authentication required for this request' },
    });
    const forbidden = { status: 403, body: { error: 'Only the owner of this fundraiser can see its stats' } };
    expect(await answerOf(path, { token: userToken('someone-else') })).toEqual(forbidden);
    expect(await answerOf(path, { token: anonymousToken('live-owner') })).toEqual(forbidden);
    expect((await answerOf('/api/fundraisers/no-such-fundraiser/live', owner)).status).toBe(404);
  });
});

describe('GET /api/user/{id}/live', () => {
  it("pushes the user's impact on every scan of any of their fundraisers, a new one included", async () => {
    const stream = await live('/api/user/live-owner/live', owner);
    expect(stream.status).toBe(200);
    const first = userStats.parse(await stream.next(() => true));
    expect(first.shirtsOwned).toBe(1);

    const { id: second } = await createFundraiser(server.api, asUser('live-owner'), { name: 'Second shirt' });
    await stream.next((stats) => stats.shirtsOwned === 2);
    await server.api('POST', `/api/fundraisers/${second}/scan`, { headers: scanner(2) });
    const scanned = userStats.parse(await stream.next((stats) => stats.totalScans === first.totalScans + 1));
    expect(scanned.fundraiserStats.find((item) => item.id === second)).toMatchObject({ scans: 1 });
    await server.api('POST', `/api/fundraisers/${fundraiserId}/scan`, { headers: scanner(2) });
    await stream.next((stats) => stats.totalScans === first.totalScans + 2);
  });

  it('answers only that user: 401 without a token, 403 for anyone else', async () => {
    expect((await answerOf('/api/user/live-owner/live', {})).status).toBe(401);
    expect((await answerOf('/api/user/live-owner/live', { token: userToken('someone-else') })).status).toBe(403);
  });
});

describe('live streams per account', () => {
  it('opens at most 5 for one account, both kinds together: the 6th answers 429, and closing one frees its place', async () => {
    const account = 'live-many-tabs';
    const mine = { token: userToken(account), headers: { 'x-user-id': account } };
    const { id } = await createFundraiser(server.api, asUser(account));
    const tabs = [
      await live(`/api/fundraisers/${id}/live`, mine),
      await live(`/api/fundraisers/${id}/live`, mine),
      await live(`/api/user/${account}/live`, mine),
      await live(`/api/user/${account}/live`, mine),
      await live(`/api/fundraisers/${id}/live`, mine),
    ];
    expect(tabs.map((tab) => tab.status)).toEqual([200, 200, 200, 200, 200]);
    const tooMany = {
      status: 429,
      body: {
        error: 'You have 5 live updates open already (in other tabs or on other devices): close one to open another',
      },
    };
    expect(await answerOf(`/api/user/${account}/live`, mine)).toEqual(tooMany);
    expect(await answerOf(`/api/fundraisers/${id}/live`, mine)).toEqual(tooMany);
    // Another account has its own five.
    expect((await live('/api/user/live-owner/live', owner)).status).toBe(200);

    tabs[0]!.close();
    const reopened = await eventually(
      () => live(`/api/user/${account}/live`, mine),
      (stream) => stream.status === 200,
    );
    expect(reopened.status).toBe(200);
    expect(await reopened.next(() => true)).toMatchObject({ shirtsOwned: 1 });
    expect((await answerOf(`/api/user/${account}/live`, mine)).status).toBe(429);
  });
});

async function answerOf(path: string, options: { token?: string; headers?: Record<string, string> }) {
  const answer = await server.api('GET', path, options);
  return { status: answer.status, body: answer.body };
}
