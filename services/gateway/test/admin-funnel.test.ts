import { adminFunnel, charityList, shirtList } from '@qrshirt/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFundraiser, scanner, WAIT_MS } from '@qrshirt/test-support';
import { asUser } from './support/test-server';
import { type AdminTestServer, startAdminServer } from './support/admin';
import { donateConfirmed } from './support/webhooks';

let server: AdminTestServer;
const now = new Date('2026-05-04T12:00:00.000Z');

beforeAll(async () => {
  server = await startAdminServer({ clock: () => now });
});
afterAll(() => server.stop());

describe('GET /api/admin/funnel', () => {
  it('shows page views to waitlist joins, and scans to confirmed donations, per day and per shirt', async () => {
    const shirts = shirtList.parse((await server.api('GET', '/api/shirts')).body);
    const charities = charityList.parse((await server.api('GET', '/api/charities')).body);
    const [shirt, other] = shirts;
    const events = [
      { type: 'page_view', path: '/shop' },
      { type: 'page_view', path: `/shirt/${shirt!.id}` },
      { type: 'shirt_clicked', shirt_id: shirt!.id, shirt_name: shirt!.name },
    ];
    expect((await server.api('POST', '/api/analytics', { body: { events } })).status).toBe(202);
    const joined = await server.api('POST', '/api/waitlist', {
      body: {
        name: 'Ada',
        email: 'ada@example.com',
        selectedSize: shirt!.sizes[0],
        selectedCharity: charities[0]!.id,
        shirtId: shirt!.id,
      },
    });
    expect(joined.status).toBe(201);
    const owned = await createFundraiser(server.api, asUser('funnel-owner'), { shirtId: other!.id });
    await server.api('POST', `/api/fundraisers/${owned.id}/scan`, { headers: scanner(1) });
    await server.api('POST', `/api/fundraisers/${owned.id}/scan`, { headers: scanner(2) });
    await donateConfirmed(server.api, owned.id, 4.5);
    await server.embedded.projectionsCaughtUp(WAIT_MS);

    const all = await server.api('GET', '/api/admin/funnel?from=2026-05-03&to=2026-05-04', server.admin);
    expect(all.status, JSON.stringify(all.body)).toBe(200);
    const funnel = adminFunnel.parse(all.body);
    expect(funnel.totals).toEqual({
      pageViews: 2,
      shirtClicks: 1,
      waitlistJoins: 1,
      fulfilled: 0,
      claimed: 0,
      scans: 2,
      donations: 1,
      amountRaised: 4.5,
    });
    expect(funnel.daily.map((day) => day.date)).toEqual(['2026-05-03', '2026-05-04']);
    expect(funnel.shirts).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ shirtId: shirt!.id, pageViews: 1, shirtClicks: 1, waitlistJoins: 1, scans: 0 }),
        expect.objectContaining({ shirtId: other!.id, pageViews: 0, scans: 2, donations: 1, amountRaised: 4.5 }),
      ]),
    );

    const one = adminFunnel.parse(
      (await server.api('GET', `/api/admin/funnel?shirtId=${other!.id}`, server.admin)).body,
    );
    expect(one).toMatchObject({ from: '2026-04-05', to: '2026-05-04', shirtId: other!.id });
    expect(one.totals).toMatchObject({ pageViews: 0, shirtClicks: 0, scans: 2, donations: 1 });
  });

  it('is for admins only, and refuses a range that is not one', async () => {
    expect((await server.api('GET', '/api/admin/funnel')).status).toBe(401);
    expect((await server.api('GET', '/api/admin/funnel', server.member)).status).toBe(403);
    expect(await server.api('GET', '/api/admin/funnel?from=2026-05-04&to=2026-05-01', server.admin)).toMatchObject({
      status: 400,
      body: { error: 'from must not be after to' },
    });
    expect((await server.api('GET', '/api/admin/funnel?from=2025-01-01', server.admin)).status).toBe(400);
    expect((await server.api('GET', '/api/admin/funnel?to=yesterday', server.admin)).status).toBe(400);
    expect((await server.api('GET', '/api/admin/funnel?to=2026-02-30', server.admin)).status).toBe(400);
  });
});
