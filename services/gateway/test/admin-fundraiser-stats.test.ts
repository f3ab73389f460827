import { createFundraiser, scanner } from '@qrshirt/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AdminTestServer, startAdminServer } from './support/admin';
import { confirmDonation } from './support/webhooks';

let server: AdminTestServer;

beforeAll(async () => {
  server = await startAdminServer();
});
afterAll(() => server.stop());

describe('GET /api/admin/fundraisers/{id}/stats', () => {
  it("shows an admin the figures the fundraiser's owner sees", async () => {
    const shirt = await createFundraiser(server.api, server.member);
    expect((await server.api('POST', `/api/fundraisers/${shirt.id}/scan`, { headers: scanner(7) })).status).toBe(202);
    await confirmDonation(server.api, { fundraiserId: shirt.id, amount: 15 });
    const owners = async () => (await server.api('GET', `/api/fundraisers/${shirt.id}/stats`, server.member)).body;
    await expect.poll(owners).toMatchObject({ scans: 1, amountRaised: 15 });

    const answer = await server.api('GET', `/api/admin/fundraisers/${shirt.id}/stats`, server.admin);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual(await owners());
  });

  it('is for admins only, and answers 404 for a fundraiser that does not exist', async () => {
    const shirt = await createFundraiser(server.api, server.member);
    const path = `/api/admin/fundraisers/${shirt.id}/stats`;
    expect((await server.api('GET', path, server.member)).status).toBe(403);
    expect((await server.api('GET', path)).status).toBe(401);
    expect(await server.api('GET', '/api/admin/fundraisers/no-such-shirt/stats', server.admin)).toMatchObject({
      status: 404,
      body: { error: 'Fundraiser not found' },
    });
  });
});
