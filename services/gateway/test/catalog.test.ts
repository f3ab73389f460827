import { charity, charityList, shirt, shirtList } from '@qrshirt/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WAIT_MS } from '@qrshirt/test-support';
import { anonymousToken, startTestServer, type TestServer, userToken } from './support/test-server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop());

describe('shirts', () => {
  it('lists the seeded collection in the contract shape', async () => {
    const { status, body } = await server.api('GET', '/api/shirts');
    expect(status).toBe(200);
    const shirts = shirtList.parse(body);
    expect(shirts.length).toBeGreaterThanOrEqual(8);
    for (const item of shirts) {
      expect(item.images.length).toBeGreaterThan(1);
      expect(item.images.filter((image) => image.isMain)).toHaveLength(1);
      expect(item.price).toBeGreaterThan(0);
    }
  });

  it('serves every shirt image', async () => {
    const { body } = await server.api('GET', '/api/shirts');
    const urls = shirtList.parse(body).flatMap((item) => item.images.map((image) => image.url));
    for (const url of urls) {
      const answer = await fetch(server.url + url);
      expect(answer.status, url).toBe(200);
      expect(answer.headers.get('content-type')).toMatch(/^image\//);
    }
  });

  it('answers one shirt, and 404 with the error shape for an unknown id', async () => {
    const { body: shirts } = await server.api('GET', '/api/shirts');
    const one = await server.api('GET', `/api/shirt/${shirts[0].id}`);
    expect(one.status).toBe(200);
    expect(shirt.parse(one.body)).toEqual(shirts[0]);

    const missing = await server.api('GET', '/api/shirt/no-such-shirt');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: 'Shirt not found' });
  });

  it('refuses an id with characters no id has', async () => {
    const answer = await server.api('GET', `/api/shirt/${encodeURIComponent('a b;c')}`);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatch(/id/);
  });
});

describe('charities', () => {
  it('lists at least five charities with mission, website and logo', async () => {
    const { status, body } = await server.api('GET', '/api/charities');
    expect(status).toBe(200);
    const charities = charityList.parse(body);
    expect(charities.length).toBeGreaterThanOrEqual(5);
    for (const item of charities) {
      expect(item.mission).not.toBe('');
      expect(item.website_url).toMatch(/^https:\/\//);
      expect(item.logo_url).toBeTruthy();
    }
  });

  it('answers one charity, and 404 for an unknown id', async () => {
    const { body: charities } = await server.api('GET', '/api/charities');
    const one = await server.api('GET', `/api/charity/${charities[0].id}`);
    expect(charity.parse(one.body)).toEqual(charities[0]);
    const missing = await server.api('GET', '/api/charity/nope');
    expect(missing).toMatchObject({ status: 404, body: { error: 'Charity not found' } });
  });

  it('takes a charity from a signed-in user only, to wait for review', async () => {
    const valid = { name: 'Tree Friends', mission: 'Plants trees.', website_url: 'https://trees.example.org' };
    const noToken = await server.api('POST', '/api/charity', { body: valid });
    expect(noToken).toMatchObject({ status: 401, body: { error: 'Authentication required for this request' } });
    const anonymous = await server.api('POST', '/api/charity', { body: valid, token: anonymousToken('anon-1') });
    expect(anonymous.status).toBe(403);

    const created = await server.api('POST', '/api/charity', { body: valid, token: userToken('alice') });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ ...valid, id: expect.any(String), status: 'pending' });
    await server.embedded.projectionsCaughtUp(WAIT_MS);
    const { body: charities } = await server.api('GET', '/api/charities');
    expect(charities.map((item: { id: string }) => item.id)).not.toContain(created.body.id);
  });

  it('refuses a charity without a name or with a bad website', async () => {
    const token = userToken('alice');
    const noName = await server.api('POST', '/api/charity', {
      token,
      body: { mission: 'x', website_url: 'https://x.example' },
    });
    expect(noName.status).toBe(400);
    expect(noName.body.error).toMatch(/name/);
    const badUrl = await server.api('POST', '/api/charity', {
      token,
      body: { name: 'X', mission: 'x', website_url: 'not a url' },
    });
    expect(badUrl.status).toBe(400);
    expect(badUrl.body.error).toMatch(/website_url/);
  });

  it('counts blanks toward the longest length the document gives, as JSON Schema does', async () => {
    const token = userToken('alice');
    const address = `https://x.example/${'a'.repeat(2048 - 'https://x.example/'.length)}`;
    const longest = { name: 'n'.repeat(200), mission: 'x', website_url: address };
    expect((await server.api('POST', '/api/charity', { token, body: longest })).status).toBe(201);
    const paddedAddress = await server.api('POST', '/api/charity', {
      token,
      body: { ...longest, website_url: ` ${address}` },
    });
    expect(paddedAddress).toMatchObject({ status: 400, body: { error: expect.stringContaining('website_url') } });
    const paddedName = await server.api('POST', '/api/charity', {
      token,
      body: { ...longest, name: `${longest.name}\n` },
    });
    expect(paddedName).toMatchObject({ status: 400, body: { error: expect.stringContaining('name') } });
  });
});
