import { charityList, fundraiserDetails, fundraiserStats } from '@qrshirt/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFundraiser, scanner, WAIT_MS } from '@qrshirt/test-support';
import { asUser, startTestServer, type TestServer, userToken } from './support/test-server';
import { donateConfirmed } from './support/webhooks';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop());

describe('PATCH /api/fundraisers/{id}', () => {
  it('re-points a shirt at another charity: the QR keeps working, and the figures stay with the charity of their time', async () => {
    const owner = userToken('re-pointing-owner');
    const charities = charityList.parse((await server.api('GET', '/api/charities')).body);
    const [first, second] = charities;
    const owned = await createFundraiser(server.api, asUser('re-pointing-owner'), { charityId: first!.id });
    const scan = (n: number) => server.api('POST', `/api/fundraisers/${owned.id}/scan`, { headers: scanner(n) });

    expect((await scan(1)).status).toBe(202);
    expect((await scan(2)).status).toBe(202);
    await donateConfirmed(server.api, owned.id, 10);
    await server.embedded.projectionsCaughtUp(WAIT_MS);

    const patched = await server.api('PATCH', `/api/fundraisers/${owned.id}`, {
      token: owner,
      body: { charityId: second!.id, name: 'Now for the second', goal: 100 },
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(fundraiserDetails.parse(patched.body)).toMatchObject({
      charityId: second!.id,
      name: 'Now for the second',
      goal: 100,
      amountRaised: 10,
    });

    // The same QR code (the same id) still counts, now for the second charity.
    expect((await scan(3)).status).toBe(202);
    await donateConfirmed(server.api, owned.id, 2.5);
    await donateConfirmed(server.api, owned.id, 5);
    await server.embedded.projectionsCaughtUp(WAIT_MS);

    const page = await server.api('GET', `/api/fundraisers/${owned.id}`);
    expect(fundraiserDetails.parse(page.body)).toMatchObject({
      charityId: second!.id,
      name: 'Now for the second',
      goal: 100,
      amountRaised: 17.5,
    });
    const stats = fundraiserStats.parse(
      (await server.api('GET', `/api/fundraisers/${owned.id}/stats`, { token: owner })).body,
    );
    expect(stats).toMatchObject({ scans: 3, donations: 3, amountRaised: 17.5 });
    expect(stats.byCharity).toEqual([
      { charityId: first!.id, scans: 2, donations: 1, amountRaised: 10 },
      { charityId: second!.id, scans: 1, donations: 2, amountRaised: 7.5 },
    ]);
  });

  it('is for the owner only', async () => {
    const owned = await createFundraiser(server.api, asUser('patch-owner'));
    const path = `/api/fundraisers/${owned.id}`;
    expect((await server.api('PATCH', path, { body: { goal: 5 } })).status).toBe(401);
    expect(await server.api('PATCH', path, { token: userToken('someone-else'), body: { goal: 5 } })).toMatchObject({
      status: 403,
      body: { error: 'Only the owner of this fundraiser can change it' },
    });
    expect((await server.api('GET', path)).body).toMatchObject({ goal: null });
  });
});
