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
      body: { uid: 'u-1', displayName: 'Ada', email: null, photoURL: null },
    });
    expect(created.status).toBe(200);
    expect(user.parse(created.body)).toEqual({
      uid: 'u-1',
      displayName: 'Ada',
      email: null,
      photoURL: null,
      dailySummary: false,
    });

    const updated = await server.api('POST', '/api/user', {
      token,
      body: { uid: 'u-1', displayName: 'Ada L.', photoURL: 'https://img.example/ada.png' },
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

describe('profile photos', () => {
  it('take https addresses only: javascript:, data:, file: and http: are refused with 400, nothing changed', async () => {
    const token = userToken('u-photo');
    const photo = 'https://img.example/me.png';
    expect(
      (await server.api('POST', '/api/user', { token, body: { uid: 'u-photo', displayName: 'P', photoURL: photo } }))
        .status,
    ).toBe(200);
    for (const photoURL of [
      'javascript:alert(document.cookie)',
      'data:image/svg+xml;base64,PHN2Zy8+',
      'file:///etc/passwd',
      'http://img.example/me.png',
    ]) {
      const synced = await server.api('POST', '/api/user', { token, body: { uid: 'u-photo', photoURL } });
      expect(synced.status, photoURL).toBe(400);
      expect(synced.body.error, photoURL).toMatch(/photoURL/);
      const patched = await server.api('PATCH', '/api/user/u-photo', { token, body: { photoURL } });
      expect(patched.status, photoURL).toBe(400);
      expect(patched.body.error, photoURL).toMatch(/photoURL/);
    }
    expect((await server.api('GET', '/api/user/u-photo', { token })).body.photoURL).toBe(photo);
  });
});
