import { randomUUID } from 'node:crypto';
import { adminCharityList, charityWithStatus, ownCharityList } from '@qrshirt/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AdminTestServer, startAdminServer } from './support/admin';
import { asUser } from './support/test-server';
import { type RequestOptions, WAIT_MS } from '@qrshirt/test-support';

let server: AdminTestServer;
let shirt: { id: string; sizes: string[] };
beforeAll(async () => {
  server = await startAdminServer();
  [shirt] = (await server.api('GET', '/api/shirts')).body;
});
afterAll(() => server.stop());

let submissions = 0;
/** A charity the member submits through POST /api/charity. */
async function submit(name = `Member Charity ${++submissions}`) {
  const answer = await server.api('POST', '/api/charity', {
    ...server.member,
    body: {
      name,
      mission: 'Helps.',
      website_url: 'https://help.example.org',
      logo_url: '/images/charities/givedirectly.svg',
    },
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return charityWithStatus.parse(answer.body);
}

/** What the shop and every charity selector offer: GET /api/charities once projected. */
async function shopCharityIds(): Promise<string[]> {
  await server.embedded.projectionsCaughtUp(WAIT_MS);
  return (await server.api('GET', '/api/charities')).body.map((charity: { id: string }) => charity.id);
}

const joinWaitlist = (charityId: string, email: string) =>
  server.api('POST', '/api/waitlist', {
    body: { shirtId: shirt.id, selectedSize: shirt.sizes[0], selectedCharity: charityId, name: 'Bo', email },
  });

const createFundraiser = (charityId: string) =>
  server.api('POST', '/api/fundraisers', { ...server.member, body: { charityId, shirtId: shirt.id } });

async function adminList(status?: string) {
  const answer = await server.api('GET', `/api/admin/charities${status ? `?status=${status}` : ''}`, server.admin);
  expect(answer.status).toBe(200);
  return adminCharityList.parse(answer.body).charities;
}

describe("a member's charity", () => {
  it('waits for review: no public list, no selector, no fundraiser, no waitlist; its submitter sees it pending', async () => {
    const charity = await submit('Owl Rescue');
    expect(charity.status).toBe('pending');

    expect(await shopCharityIds()).not.toContain(charity.id);
    expect(await server.api('GET', `/api/charity/${charity.id}`)).toMatchObject({
      status: 404,
      body: { error: 'Charity not found' },
    });
    expect(await server.api('GET', `/api/charity/${charity.id}`, server.admin)).toMatchObject({ status: 404 });
    expect(await server.api('GET', `/api/charity/${charity.id}`, server.member)).toMatchObject({
      status: 200,
      body: { id: charity.id, name: 'Owl Rescue', status: 'pending' },
    });
    expect(await createFundraiser(charity.id)).toMatchObject({ status: 404, body: { error: 'Charity not found' } });
    expect(await joinWaitlist(charity.id, 'bo@example.org')).toMatchObject({
      status: 404,
      body: { error: 'Charity not found' },
    });

    expect(await adminList()).toContainEqual({
      ...charity,
      createdBy: server.memberUid,
      createdAt: expect.any(String),
    });
  });

  it('is in the shop once an admin approves it, and can be supported', async () => {
    const charity = await submit();
    const approved = await server.api('POST', `/api/admin/charities/${charity.id}/approve`, server.admin);
    expect(approved).toMatchObject({ status: 200, body: { ...charity, status: 'approved' } });

    expect(await shopCharityIds()).toContain(charity.id);
    expect(await server.api('GET', `/api/charity/${charity.id}`)).toMatchObject({
      status: 200,
      body: { id: charity.id, status: 'approved' },
    });
    expect((await joinWaitlist(charity.id, 'bo@example.org')).status).toBe(201);
    expect((await createFundraiser(charity.id)).status).toBe(201);
    expect((await adminList()).map((pending) => pending.id)).not.toContain(charity.id);
    expect((await adminList('approved')).map((listed) => listed.id)).toContain(charity.id);
    // A second click changes nothing.
    expect(await server.api('POST', `/api/admin/charities/${charity.id}/approve`, server.admin)).toMatchObject({
      status: 200,
      body: { status: 'approved' },
    });
  });

  it('stays hidden once rejected, with the reason recorded for admins and the submitter', async () => {
    const charity = await submit();
    const reason = 'We could not find it in any register of charities.';
    const rejected = await server.api('POST', `/api/admin/charities/${charity.id}/reject`, {
      ...server.admin,
      body: { reason: `  ${reason} ` },
    });
    expect(rejected).toMatchObject({
      status: 200,
      body: { id: charity.id, status: 'rejected', rejectionReason: reason },
    });

    expect(await shopCharityIds()).not.toContain(charity.id);
    expect((await server.api('GET', `/api/charity/${charity.id}`)).status).toBe(404);
    expect((await joinWaitlist(charity.id, 'bo@example.org')).status).toBe(404);
    expect(await server.api('GET', `/api/charity/${charity.id}`, server.member)).toMatchObject({
      status: 200,
      body: { status: 'rejected', rejectionReason: reason },
    });
    expect((await adminList()).map((pending) => pending.id)).not.toContain(charity.id);
    expect(await adminList('rejected')).toContainEqual(
      expect.objectContaining({ id: charity.id, status: 'rejected', rejectionReason: reason }),
    );
    const events = await server.api('GET', `/api/admin/events?streamPrefix=charity-${charity.id}`, server.admin);
    expect(events.body.events[0]).toMatchObject({
      type: 'CharityRejected',
      data: { charityId: charity.id, rejectedBy: server.adminUid, reason },
    });
  });

  it('needs a reason to be rejected, and an approved charity cannot be', async () => {
    const charity = await submit();
    const blank = await server.api('POST', `/api/admin/charities/${charity.id}/reject`, {
      ...server.admin,
      body: { reason: '   ' },
    });
    expect(blank).toMatchObject({
      status: 400,
      body: { error: 'Reason is required', fields: { reason: 'Reason is required' } },
    });
    const missing = await server.api('POST', `/api/admin/charities/${charity.id}/reject`, {
      ...server.admin,
      body: {},
    });
    expect(missing).toMatchObject({ status: 400, body: { fields: { reason: 'Reason is required' } } });

    await server.api('POST', `/api/admin/charities/${charity.id}/approve`, server.admin);
    const late = await server.api('POST', `/api/admin/charities/${charity.id}/reject`, {
      ...server.admin,
      body: { reason: 'Too late' },
    });
    expect(late).toMatchObject({ status: 409, body: { error: 'This charity is in the shop already' } });
  });

  it('is listed to its submitter with where it stands, oldest first, and to nobody else', async () => {
    const memberId = `submitter-${randomUUID()}`;
    const submitter = asUser(memberId);
    const own = `/api/user/${memberId}/charities`;
    expect(await server.api('GET', own, submitter)).toMatchObject({ status: 200, body: { charities: [] } });
    const ids: string[] = [];
    for (const name of ['Bats', 'Bees', 'Bears']) {
      const answer = await server.api('POST', '/api/charity', {
        ...submitter,
        body: { name, mission: 'Helps.', website_url: 'https://help.example.org' },
      });
      ids.push(answer.body.id as string);
    }
    await server.api('POST', `/api/admin/charities/${ids[1]}/approve`, server.admin);
    await server.api('POST', `/api/admin/charities/${ids[2]}/reject`, { ...server.admin, body: { reason: 'No.' } });
    await server.embedded.projectionsCaughtUp(WAIT_MS);

    const listed = await server.api('GET', own, submitter);
    expect(listed.status).toBe(200);
    expect(ownCharityList.parse(listed.body).charities).toEqual([
      { id: ids[0], name: 'Bats', mission: 'Helps.', website_url: 'https://help.example.org', status: 'pending' },
      { id: ids[1], name: 'Bees', mission: 'Helps.', website_url: 'https://help.example.org', status: 'approved' },
      {
        id: ids[2],
        name: 'Bears',
        mission: 'Helps.',
        website_url: 'https://help.example.org',
        status: 'rejected',
        rejectionReason: 'No.',
      },
    ]);
    for (const someoneElse of [server.member, server.admin]) {
      expect(await server.api('GET', own, someoneElse)).toMatchObject({
        status: 403,
        body: { error: expect.any(String) },
      });
    }
    expect((await server.api('GET', own, server.anonymous)).status).toBe(403);
    expect((await server.api('GET', own)).status).toBe(401);
  });

  it('answers 404 for an unknown charity and 400 for an unknown status', async () => {
    expect(await server.api('POST', '/api/admin/charities/no-such/approve', server.admin)).toMatchObject({
      status: 404,
      body: { error: 'Charity not found' },
    });
    expect(
      await server.api('POST', '/api/admin/charities/no-such/reject', { ...server.admin, body: { reason: 'No.' } }),
    ).toMatchObject({ status: 404, body: { error: 'Charity not found' } });
    const wrong = await server.api('GET', '/api/admin/charities?status=maybe', server.admin);
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toEqual(expect.any(String));
  });
});

describe('the review routes', () => {
  it('answer 401 without a token and 403 to members and anonymous sessions', async () => {
    const charity = await submit();
    const routes: [string, string, RequestOptions?][] = [
      ['GET', '/api/admin/charities'],
      ['POST', `/api/admin/charities/${charity.id}/approve`],
      ['POST', `/api/admin/charities/${charity.id}/reject`, { body: { reason: 'No.' } }],
    ];
    for (const [method, path, options] of routes) {
      expect((await server.api(method, path, options)).status, `${method} ${path}`).toBe(401);
      for (const caller of [server.member, server.anonymous]) {
        const answer = await server.api(method, path, { ...options, ...caller });
        expect(answer.status, `${method} ${path}`).toBe(403);
        expect(answer.body).toEqual({ error: expect.any(String) });
      }
    }
    // Nobody but the admin changed anything.
    expect((await adminList()).map((pending) => pending.id)).toContain(charity.id);
  });
});

describe("an admin's charity", () => {
  it('is in the shop at once', async () => {
    const created = await server.api('POST', '/api/admin/charities', {
      ...server.admin,
      body: { name: 'Admin Charity', mission: 'Helps.', website_url: 'https://admin.example.org' },
    });
    expect(created.status).toBe(201);
    expect(await shopCharityIds()).toContain(created.body.id);
  });

  it.each([
    [
      'an http: website',
      { website_url: 'http://a.example.org' },
      'website_url',
      'Website must be an https:// address, like https://example.org',
    ],
    [
      'a javascript: website',
      { website_url: 'javascript:alert(1)' },
      'website_url',
      'Website must be an https:// address, like https://example.org',
    ],
    [
      'an http: logo',
      { logo_url: 'http://a.example.org/logo.png' },
      'logo_url',
      'Logo must be an https:// address or a path on this site starting with /',
    ],
    [
      'a data: logo',
      { logo_url: 'data:image/png;base64,AAAA' },
      'logo_url',
      'Logo must be an https:// address or a path on this site starting with /',
    ],
    [
      'a //host logo',
      { logo_url: '//evil.example/logo.png' },
      'logo_url',
      'Logo must be an https:// address or a path on this site starting with /',
    ],
  ])('refuses %s, on creation and on change', async (_what, links, field, message) => {
    const body = { name: 'Links', mission: 'Helps.', website_url: 'https://a.example.org', ...links };
    const created = await server.api('POST', '/api/admin/charities', { ...server.admin, body });
    expect(created).toMatchObject({ status: 400, body: { fields: { [field]: message } } });
    const [first] = (await server.api('GET', '/api/charities')).body;
    const changed = await server.api('PUT', `/api/admin/charities/${first.id}`, { ...server.admin, body: links });
    expect(changed).toMatchObject({ status: 400, body: { fields: { [field]: message } } });
  });
});
