import { user } from '@qrshirt/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anonymousToken, startTestServer, type TestServer, userToken } from './support/test-server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop());

describe('POST /api/user', () => {
  it('registers the signed-in user, then updates their profile', async () => {
    const token = userToken('u-1');
    const created = await server.api('POST', '/api/user', {
      token,
      body: { uid: 'u-1', displayName: 'Ada', email: 'ada@example.com', photoURL: null },
    });
    expect(created.status).toBe(200);
    expect(user.parse(created.body)).toEqual({
      uid: 'u-1',
      displayName: 'Ada',
      email: 'ada@example.com',
      photoURL: null,
      dailySummary: false,
    });

    const updated = await server.api('POST', '/api/user', {
      token,
      body: { uid: 'u-1', displayName: 'Ada L.', email: 'ada@example.com', photoURL: 'https://img.example/ada.png' },
    });
    expect(updated.body).toMatchObject({ displayName: 'Ada L.', photoURL: 'https://img.example/ada.png' });
    const read = await server.api('GET', '/api/user/u-1', { token });
    expect(read).toMatchObject({ status: 200, body: updated.body });
  });

  it("refuses to sync someone else's profile, anonymous users and missing tokens", async () => {
    const body = { uid: 'victim', displayName: 'x', email: 'x@example.com', photoURL: null };
    expect((await server.api('POST', '/api/user', { body, token: userToken('attacker') })).status).toBe(403);
    expect((await server.api('POST', '/api/user', { body, token: anonymousToken('victim') })).status).toBe(403);
    expect(await server.api('POST', '/api/user', { body })).toMatchObject({
      status: 401,
      body: { error: 'Authentication required for this request' },
    });
    const badEmail = await server.api('POST', '/api/user', {
      body: { ...body, uid: 'me', email: 'nope' },
      token: userToken('me'),
    });
    expect(badEmail.status).toBe(400);
  });
});

describe('GET /api/user/{id}', () => {
  it('answers only the user themselves, and 404 for an unknown self', async () => {
    await server.api('POST', '/api/user', {
      token: userToken('u-2'),
      body: { uid: 'u-2', displayName: 'B', email: null, photoURL: null },
    });
    expect((await server.api('GET', '/api/user/u-2', { token: userToken('u-3') })).status).toBe(403);
    expect((await server.api('GET', '/api/user/u-2')).status).toBe(401);
    expect(await server.api('GET', '/api/user/ghost', { token: userToken('ghost') })).toMatchObject({
      status: 404,
      body: { error: 'User not found' },
    });
  });
});
