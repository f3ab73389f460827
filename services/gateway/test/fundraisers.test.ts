import { type Fundraiser, fundraiser, fundraiserStats, userStats } from '@qrshirt/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFundraiser, scanner, WAIT_MS } from '@qrshirt/test-support';
import { anonymousToken, asUser, startTestServer, type TestServer, userToken } from './support/test-server';
import { donateConfirmed } from './support/webhooks';

let server: TestServer;
let now = new Date('2026-03-01T10:00:00.000Z');

beforeAll(async () => {
  server = await startTestServer({ clock: () => now });
});
afterAll(() => server.stop());

describe('POST /api/fundraisers', () => {
  it('creates a fundraiser owned by the signed-in user, readable by anyone', async () => {
    const [{ body: shirts }, { body: charities }] = await Promise.all([
      server.api('GET', '/api/shirts'),
      server.api('GET', '/api/charities'),
    ]);
    const created = await server.api('POST', '/api/fundraisers', {
      token: userToken('owner-1'),
      body: { shirtId: shirts[1].id, charityId: charities[1].id },
    });
    expect(created.status).toBe(201);
    expect(fundraiser.parse(created.body)).toEqual({
      id: expect.any(String),
      userId: 'owner-1',
      shirtId: shirts[1].id,
      charityId: charities[1].id,
      name: shirts[1].name,
    });
    // Readable at once, before the projection has necessarily caught up: by anyone, who is not told whose it is.
    const { userId: _owner, ...shown } = created.body as Fundraiser;
    const read = await server.api('GET', `/api/fundraisers/${created.body.id}`);
    expect(read).toMatchObject({ status: 200, body: { ...shown, owned: false } });
    expect(read.body).not.toHaveProperty('userId');
  });

  it('needs a signed-in, non-anonymous user and existing references', async () => {
    const { body: shirts } = await server.api('GET', '/api/shirts');
    const { body: charities } = await server.api('GET', '/api/charities');
    const body = { shirtId: shirts[0].id, charityId: charities[0].id };
    expect(await server.api('POST', '/api/fundraisers', { body })).toMatchObject({
      status: 401,
      body: { error: 'Authentication required for this request' },
    });
    expect((await server.api('POST', '/api/fundraisers', { body, token: anonymousToken('a') })).status).toBe(403);
    const token = userToken('owner-2');
    expect(await server.api('POST', '/api/fundraisers', { token, body: { ...body, charityId: 'nope' } })).toMatchObject(
      {
        status: 404,
        body: { error: 'Charity not found' },
      },
    );
    expect(await server.api('POST', '/api/fundraisers', { token, body: { ...body, shirtId: 'nope' } })).toMatchObject({
      status: 404,
      body: { error: 'Shirt not found' },
    });
    const missing = await server.api('POST', '/api/fundraisers', { token, body: { shirtId: shirts[0].id } });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatch(/charityId/);
  });

  it('answers 404 for an unknown fundraiser', async () => {
    expect(await server.api('GET', '/api/fundraisers/does-not-exist')).toMatchObject({
      status: 404,
      body: { error: 'Fundraiser not found' },
    });
  });
});

describe('GET /api/fundraisers/{id}', () => {
  it('tells its owner it is theirs, and names the owner to nobody: a stranger, an anonymous session, no token', async () => {
    const made = await createFundraiser(server.api, asUser('named-owner'));
    const read = (token: string | undefined) => server.api('GET', `/api/fundraisers/${made.id}`, { token });
    const callers = [userToken('stranger'), anonymousToken('named-owner'), undefined, userToken('named-owner')];
    // At once (from the log while the read model has not caught up), then from the read model.
    for (const answers of [
      await Promise.all(callers.map(read)),
      await server.embedded.projectionsCaughtUp(WAIT_MS).then(() => Promise.all(callers.map(read))),
    ]) {
      expect(answers.map(({ status, body }) => ({ status, owned: body.owned }))).toEqual([
        { status: 200, owned: false },
        { status: 200, owned: false },
        { status: 200, owned: false },
        { status: 200, owned: true },
      ]);
      for (const { body, headers } of answers) {
        expect(body).not.toHaveProperty('userId');
        expect(JSON.stringify(body)).not.toContain('named-owner');
        // An answer per caller: no shared cache keeps it, and a browser asks again for another session.
        expect(headers.get('cache-control')).toBe('private, no-cache');
        expect(headers.get('vary')).toMatch(/\bAuthorization\b/i);
      }
    }
  });

  it("answers the owner's change as theirs, naming nobody", async () => {
    const made = await createFundraiser(server.api, asUser('changing-owner'));
    const changed = await server.api('PATCH', `/api/fundraisers/${made.id}`, {
      ...asUser('changing-owner'),
      body: { goal: 50 },
    });
    expect(changed).toMatchObject({ status: 200, body: { id: made.id, goal: 50, owned: true } });
    expect(changed.body).not.toHaveProperty('userId');
  });
});

describe('scans', () => {
  it('accepts a scan with a server-made id once stored, and counts it', async () => {
    const owned = await createFundraiser(server.api, asUser('scanner-owner'));
    const ids = new Set<string>();
    for (let i = 0; i < 3; i++) {
      const answer = await server.api('POST', `/api/fundraisers/${owned.id}/scan`, { headers: scanner(i) });
      expect(answer.status).toBe(202);
      expect(answer.body.scanId).toEqual(expect.any(String));
      ids.add(answer.body.scanId);
    }
    expect(ids.size).toBe(3);
    await server.embedded.projectionsCaughtUp(WAIT_MS);
    const stats = await server.api('GET', `/api/fundraisers/${owned.id}/stats`, { token: userToken('scanner-owner') });
    expect(stats.body).toMatchObject({ scans: 3, scanRequests: 3, donations: 0, amountRaised: 0 });
  });

  it('answers 404 when scanning an unknown fundraiser', async () => {
    expect(await server.api('POST', '/api/fundraisers/unknown/scan')).toMatchObject({
      status: 404,
      body: { error: 'Fundraiser not found' },
    });
  });

  it("refuses an id the route's schema refuses, each time, after scans of good ids", async () => {
    const owned = await createFundraiser(server.api, asUser('long-id-scanner-owner'));
    const tooLong = `a${'b'.repeat(128)}`;
    for (const id of [owned.id, tooLong, owned.id, tooLong]) {
      const answer = await server.api('POST', `/api/fundraisers/${id}/scan`, { headers: scanner(7) });
      expect(answer.status).toBe(id === tooLong ? 400 : 202);
      if (id === tooLong) expect(answer.body.error).toMatch(/id/);
    }
  });

  it('takes a scan whatever token comes with it: a scanner whose session expired still counts', async () => {
    const owned = await createFundraiser(server.api, asUser('expired-scanner-owner'));
    for (const [i, token] of ['not-a-jwt', anonymousToken('scanner'), userToken('someone')].entries()) {
      expect(
        await server.api('POST', `/api/fundraisers/${owned.id}/scan`, { token, headers: scanner(i) }),
      ).toMatchObject({
        status: 202,
        body: { scanId: expect.any(String) },
      });
    }
    // The rest of the API still refuses a bad token.
    expect((await server.api('GET', `/api/fundraisers/${owned.id}`, { token: 'not-a-jwt' })).status).toBe(401);
    await server.embedded.projectionsCaughtUp(WAIT_MS);
    const stats = await server.api('GET', `/api/fundraisers/${owned.id}/stats`, {
      token: userToken('expired-scanner-owner'),
    });
    expect(stats.body.scans).toBe(3);
  });

  it('counts every one of many concurrent scans exactly once', async () => {
    const owned = await createFundraiser(server.api, asUser('crowd-owner'));
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        server.api('POST', `/api/fundraisers/${owned.id}/scan`, { headers: scanner(1000 + i) }),
      ),
    );
    expect(answers.every((answer) => answer.status === 202)).toBe(true);
    await server.embedded.projectionsCaughtUp(WAIT_MS);
    const stats = await server.api('GET', `/api/fundraisers/${owned.id}/stats`, { token: userToken('crowd-owner') });
    expect(stats.body).toMatchObject({ scans: 200, scanRequests: 200 });
  });
});

describe('donations', () => {
  it('parses the widget amount rules and refuses what is not a positive number', async () => {
    const owned = await createFundraiser(server.api, asUser('donee'));
    const donate = (amount: unknown) => server.api('POST', `/api/fundraisers/${owned.id}/donate`, { body: { amount } });
    expect(await donate(5)).toMatchObject({
      status: 201,
      body: { amount: 5, currency: 'USD', fundraiserId: owned.id },
    });
    expect(await donate('7')).toMatchObject({ status: 201, body: { amount: 7 } });
    expect(await donate('"12.50"')).toMatchObject({ status: 201, body: { amount: 12.5 } });
    for (const bad of [0, -3, 'abc', '', null, true, { value: 1 }]) {
      const answer = await donate(bad);
      expect(answer.status, JSON.stringify(bad)).toBe(400);
      expect(answer.body.error).toBe('amount must be a number greater than 0');
    }
    expect((await server.api('POST', `/api/fundraisers/${owned.id}/donate`, { body: {} })).status).toBe(400);
    expect(await donate(1)).toMatchObject({ status: 201 });
    expect((await server.api('POST', '/api/fundraisers/unknown/donate', { body: { amount: 5 } })).status).toBe(404);

    await server.embedded.projectionsCaughtUp(WAIT_MS);
    const stats = await server.api('GET', `/api/fundraisers/${owned.id}/stats`, { token: userToken('donee') });
    // Reported, each for the amount parsed; none raised until the processor confirms it.
    expect(stats.body).toMatchObject({ donations: 0, amountRaised: 0, amountReported: 25.5 });
  });

  it('records a donation once per Idempotency-Key, even when retried concurrently', async () => {
    const owned = await createFundraiser(server.api, asUser('idem-owner'));
    const send = (amount: number, key: string) =>
      server.api('POST', `/api/fundraisers/${owned.id}/donate`, {
        body: { amount },
        headers: { 'idempotency-key': key },
      });
    const first = await send(10, 'key-1');
    expect(first.status).toBe(201);
    const retry = await send(10, 'key-1');
    expect(retry).toMatchObject({ status: 200, body: { id: first.body.id, amount: 10 } });
    expect(await send(11, 'key-1')).toMatchObject({
      status: 409,
      body: { error: 'Idempotency-Key was already used with a different amount' },
    });
    // Racing twins may each be told 201 (the store keeps one event); what counts is one donation.
    const racing = await Promise.all(Array.from({ length: 8 }, () => send(3, 'key-2')));
    expect(racing.every((answer) => answer.status === 201 || answer.status === 200)).toBe(true);
    expect(new Set(racing.map((answer) => answer.body.id)).size).toBe(1);

    await server.embedded.projectionsCaughtUp(WAIT_MS);
    const stats = await server.api('GET', `/api/fundraisers/${owned.id}/stats`, { token: userToken('idem-owner') });
    expect(stats.body).toMatchObject({ donations: 0, amountRaised: 0, amountReported: 13 });
  });
});

describe('GET /api/fundraisers/{id}/stats', () => {
  it('is for the owner only', async () => {
    const owned = await createFundraiser(server.api, asUser('private-owner'));
    const path = `/api/fundraisers/${owned.id}/stats`;
    expect((await server.api('GET', path)).status).toBe(401);
    expect((await server.api('GET', path, { token: userToken('someone-else') })).status).toBe(403);
    expect((await server.api('GET', path, { token: anonymousToken('private-owner') })).status).toBe(403);
    expect((await server.api('GET', path, { token: userToken('private-owner') })).status).toBe(200);
    expect((await server.api('GET', '/api/fundraisers/nope/stats', { token: userToken('x') })).status).toBe(404);
  });

  it('gives totals and a per-day series in dollars', async () => {
    const owned = await createFundraiser(server.api, asUser('series-owner'));
    const scan = (n: number) => server.api('POST', `/api/fundraisers/${owned.id}/scan`, { headers: scanner(n) });
    now = new Date('2026-03-01T23:59:00.000Z');
    await scan(1);
    await donateConfirmed(server.api, owned.id, 2.25);
    now = new Date('2026-03-02T00:01:00.000Z');
    await scan(2);
    await scan(3);
    // A second request from the same phone a moment later: a request, not another scan.
    await scan(3);
    await donateConfirmed(server.api, owned.id, 10);
    // Reported, never confirmed: in no figure but amountReported.
    await server.api('POST', `/api/fundraisers/${owned.id}/donate`, { body: { amount: 40 } });
    await server.embedded.projectionsCaughtUp(WAIT_MS);
    const { body } = await server.api('GET', `/api/fundraisers/${owned.id}/stats`, {
      token: userToken('series-owner'),
    });
    expect(fundraiserStats.parse(body)).toEqual({
      scans: 3,
      scanRequests: 4,
      donations: 2,
      amountRaised: 12.25,
      amountReported: 40,
      testDonations: 0,
      testAmountRaised: 0,
      byCharity: [{ charityId: owned.charityId, scans: 3, donations: 2, amountRaised: 12.25 }],
      daily: [
        { date: '2026-03-01', scans: 1, scanRequests: 1, donations: 1, amountRaised: 2.25 },
        { date: '2026-03-02', scans: 2, scanRequests: 3, donations: 1, amountRaised: 10 },
      ],
    });
  });
});

describe('GET /api/user/{id}/stats', () => {
  it('sums the owner fundraisers as spec section 3 says', async () => {
    const first = await createFundraiser(server.api, asUser('stats-user'), { name: 'First shirt' });
    const second = await createFundraiser(server.api, asUser('stats-user'), { name: 'Second shirt' });
    for (let i = 0; i < 4; i++) {
      await server.api('POST', `/api/fundraisers/${first.id}/scan`, { headers: scanner(i) });
    }
    await server.api('POST', `/api/fundraisers/${second.id}/scan`, { headers: scanner(0) });
    await donateConfirmed(server.api, first.id, 20);
    await donateConfirmed(server.api, second.id, 5.5);
    await server.api('POST', `/api/fundraisers/${second.id}/donate`, { body: { amount: 1 } });
    await server.embedded.projectionsCaughtUp(WAIT_MS);
    const { status, body } = await server.api('GET', '/api/user/stats-user/stats', { token: userToken('stats-user') });
    expect(status).toBe(200);
    const stats = userStats.parse(body);
    expect(stats).toMatchObject({ totalImpact: 25.5, totalReported: 1, totalScans: 5, shirtsOwned: 2 });
    expect(stats.fundraiserStats).toEqual(
      expect.arrayContaining([
        {
          id: first.id,
          name: 'First shirt',
          charityId: first.charityId,
          goal: null,
          purchaseDate: expect.any(String),
          scans: 4,
          donationsInspired: 1,
          amountRaised: 20,
          amountReported: 0,
          testDonations: 0,
          testAmountRaised: 0,
        },
        {
          id: second.id,
          name: 'Second shirt',
          charityId: second.charityId,
          goal: null,
          purchaseDate: expect.any(String),
          scans: 1,
          donationsInspired: 1,
          amountRaised: 5.5,
          amountReported: 1,
          testDonations: 0,
          testAmountRaised: 0,
        },
      ]),
    );
  });

  it('answers zeros for a user without shirts, and only to that user', async () => {
    const mine = await server.api('GET', '/api/user/newcomer/stats', { token: userToken('newcomer') });
    expect(mine.body).toEqual({
      totalImpact: 0,
      totalReported: 0,
      testAmountRaised: 0,
      testDonations: 0,
      totalScans: 0,
      shirtsOwned: 0,
      fundraiserStats: [],
    });
    expect((await server.api('GET', '/api/user/newcomer/stats', { token: userToken('other') })).status).toBe(403);
    expect((await server.api('GET', '/api/user/newcomer/stats')).status).toBe(401);
  });
});
