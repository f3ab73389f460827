import { adminOverview } from '@qrshirt/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createFundraiser, scanner, WAIT_MS } from '@qrshirt/test-support';
import { asUser } from './support/test-server';
import { ADMIN_EMAIL, type AdminTestServer, startAdminServer } from './support/admin';
import { donateConfirmed } from './support/webhooks';

let server: AdminTestServer;
let now = Date.parse('2025-04-01T12:00:00Z');

beforeAll(async () => {
  server = await startAdminServer({ clock: () => new Date(now) });
});
afterAll(() => server.stop());

const fundraiser = async (owner: string, charityId: string, shirtId: string, name: string) =>
  (await createFundraiser(server.api, asUser(owner), { charityId, shirtId, name })).id;

describe('GET /api/admin/overview', () => {
  it('totals, per-day series and the top fundraisers and charities by amount raised', async () => {
    const [{ body: shirts }, { body: charities }] = await Promise.all([
      server.api('GET', '/api/shirts'),
      server.api('GET', '/api/charities'),
    ]);
    const water = await fundraiser('owner-a', charities[0].id, shirts[0].id, 'Water run');
    const trees = await fundraiser('owner-b', charities[1].id, shirts[1].id, 'Tree climb');
    await fundraiser('owner-b', charities[1].id, shirts[0].id, 'Quiet one');
    for (const n of [0, 1, 2, 0]) await server.api('POST', `/api/fundraisers/${water}/scan`, { headers: scanner(n) });
    await donateConfirmed(server.api, water, 10);
    now += 24 * 60 * 60 * 1000;
    await server.api('POST', `/api/fundraisers/${trees}/scan`, { headers: scanner(0) });
    await donateConfirmed(server.api, trees, 25.5);
    await donateConfirmed(server.api, water, 0.25);
    await server.embedded.projectionsCaughtUp(WAIT_MS);
    // The session from the day before has expired on the server's clock.
    const signedIn = await server.api('POST', '/api/auth/signin', {
      body: { email: ADMIN_EMAIL, password: 'correct horse' },
    });
    const admin = as(signedIn.body);

    const { status, body } = await server.api('GET', '/api/admin/overview?top=5', admin);
    expect(status).toBe(200);
    expect(adminOverview.parse(body)).toEqual({
      // The admin and the member signed up; fundraiser owners here are bare tokens, not accounts.
      // Scanner 0's second scan of the water shirt is a request, not a scan.
      totals: {
        scans: 4,
        scanRequests: 5,
        donations: 3,
        amountRaised: 35.75,
        testDonations: 0,
        testAmountRaised: 0,
        fundraisers: 3,
        users: 2,
      },
      daily: [
        { date: '2025-04-01', scans: 3, scanRequests: 4, donations: 1, amountRaised: 10 },
        { date: '2025-04-02', scans: 1, scanRequests: 1, donations: 2, amountRaised: 25.75 },
      ],
      topFundraisers: [
        {
          id: trees,
          name: 'Tree climb',
          userId: 'owner-b',
          charityId: charities[1].id,
          scans: 1,
          donations: 1,
          amountRaised: 25.5,
        },
        {
          id: water,
          name: 'Water run',
          userId: 'owner-a',
          charityId: charities[0].id,
          scans: 3,
          donations: 2,
          amountRaised: 10.25,
        },
      ],
      topCharities: [
        { id: charities[1].id, name: charities[1].name, fundraisers: 2, amountRaised: 25.5 },
        { id: charities[0].id, name: charities[0].name, fundraisers: 1, amountRaised: 10.25 },
      ],
    });
    const topOne = await server.api('GET', '/api/admin/overview?top=1', admin);
    expect(topOne.body.topFundraisers.map((item: { id: string }) => item.id)).toEqual([trees]);
    expect((await server.api('GET', '/api/admin/overview?top=0', admin)).status).toBe(400);
  });
});
