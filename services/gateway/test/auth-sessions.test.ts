import { authSession } from '@qrshirt/contracts';
import jwt from 'jsonwebtoken';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, signUp, TEST_JWT_SECRET } from '@qrshirt/test-support';
import { DAY, MINUTE, testClock } from './support/accounts';
import { startTestServer, type TestServer } from './support/test-server';

const time = testClock();
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ clock: time.clock });
});
afterAll(() => server.stop());

const refresh = (refreshToken: string, options: { token?: string } = {}) =>
  server.api('POST', '/api/auth/refresh', { body: { refreshToken }, ...options });

describe('refresh tokens', () => {
  it('keeps a user signed in for days: the access token expires, the refresh token renews it', async () => {
    const session = await signUp(server.api);
    const me = () => server.api('GET', `/api/user/${session.user.uid}`, as(session));
    expect((await me()).status).toBe(200);

    time.advance(15 * MINUTE + 1_000);
    expect(await me()).toMatchObject({ status: 401, body: { error: 'Invalid or expired token' } });

    // The client may still send its expired token along with the refresh.
    const renewed = await refresh(session.refreshToken, { token: session.accessToken });
    expect(renewed.status).toBe(200);
    const next = authSession.parse(renewed.body);
    expect(next.user).toEqual(session.user);
    expect((await server.api('GET', `/api/user/${next.user.uid}`, as(next))).status).toBe(200);

    time.advance(29 * DAY);
    const later = await refresh(next.refreshToken);
    expect(later.status).toBe(200);
    time.advance(31 * DAY);
    expect(await refresh(later.body.refreshToken)).toMatchObject({
      status: 401,
      body: { error: 'Your session has ended. Please sign in again.' },
    });
  });

  it('ends a session 90 days after it started, however often it was refreshed', async () => {
    let session = await signUp(server.api);
    for (let day = 20; day <= 80; day += 20) {
      time.advance(20 * DAY);
      const renewed = await refresh(session.refreshToken);
      expect(renewed.status, `day ${day}`).toBe(200);
      session = authSession.parse(renewed.body);
    }
    time.advance(9 * DAY);
    const day89 = await refresh(session.refreshToken);
    expect(day89.status).toBe(200);
    time.advance(DAY + 1_000);
    expect(await refresh(day89.body.refreshToken)).toMatchObject({
      status: 401,
      body: { error: 'Your session has ended. Please sign in again.' },
    });
  });

  it('makes a used refresh token worthless, and ends the session when a used one comes back', async () => {
    const first = await signUp(server.api);
    const second = authSession.parse((await refresh(first.refreshToken)).body);
    expect(second.refreshToken).not.toBe(first.refreshToken);

    // Someone replays the first token (a stolen copy): refused, and the session it began ends.
    expect((await refresh(first.refreshToken)).status).toBe(401);
    expect((await refresh(second.refreshToken)).status).toBe(401);

    // Sessions on other devices are separate.
    const elsewhere = await server.api('POST', '/api/auth/signin', {
      body: { email: first.user.email, password: 'correct horse' },
    });
    expect((await refresh(elsewhere.body.refreshToken)).status).toBe(200);
  });

  it('refreshes anonymous sessions as anonymous', async () => {
    const anonymous = authSession.parse((await server.api('POST', '/api/auth/anonymous')).body);
    const renewed = authSession.parse((await refresh(anonymous.refreshToken)).body);
    expect(renewed.user).toEqual(anonymous.user);
    expect((await server.api('GET', '/api/charities', as(renewed))).status).toBe(200);
  });

  it('refuses made-up and malformed refresh tokens', async () => {
    expect((await refresh('not-a-token')).status).toBe(401);
    expect((await refresh('family.secret')).status).toBe(401);
    expect((await server.api('POST', '/api/auth/refresh', { body: {} })).status).toBe(400);
  });
});

describe('sign out', () => {
  it('ends the session: its refresh token no longer works', async () => {
    const session = await signUp(server.api);
    const signOut = await server.api('POST', '/api/auth/signout', { body: { refreshToken: session.refreshToken } });
    expect(signOut.status).toBe(204);
    expect((await refresh(session.refreshToken)).status).toBe(401);
    expect(
      (await server.api('POST', '/api/auth/signout', { body: { refreshToken: session.refreshToken } })).status,
    ).toBe(204);
  });
});

describe('access tokens', () => {
  const base64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

  it('refuses tokens signed with another key, altered, unsigned or signed with another algorithm', async () => {
    const session = await signUp(server.api);
    const { uid } = session.user;
    const path = `/api/user/${uid}`;
    const now = Math.floor(time.clock().getTime() / 1000);
    const claims = { sub: uid, anon: false, iat: now, exp: now + 600 };
    const [header, , signature] = session.accessToken.split('.');
    const forged = {
      otherKey: jwt.sign(claims, 'another-secret-that-is-long-enough-to-be-used', { algorithm: 'HS256' }),
      alteredPayload: `${header}.${base64url({ ...claims, sub: 'someone-else' })}.${signature}`,
      algNone: `${base64url({ alg: 'none', typ: 'JWT' })}.${base64url(claims)}.`,
      otherAlgorithm: jwt.sign({ ...claims, iss: 'qrshirt', aud: 'qrshirt-api' }, TEST_JWT_SECRET, {
        algorithm: 'HS512',
      }),
      garbage: 'definitely.not.ajwt',
    };
    expect((await server.api('GET', path, as(session))).status).toBe(200);
    for (const [name, token] of Object.entries(forged)) {
      const answer = await server.api('GET', path, { token });
      expect({ name, status: answer.status, body: answer.body }).toEqual({
        name,
        status: 401,
        body: { error: 'Invalid or expired token' },
      });
    }
  });

  it('checks the spec headers against the token', async () => {
    const session = await signUp(server.api);
    const path = `/api/user/${session.user.uid}`;
    const wrongUser = await server.api('GET', path, {
      token: session.accessToken,
      headers: { 'x-user-id': 'someone-else' },
    });
    expect(wrongUser).toMatchObject({ status: 401, body: { error: 'x-user-id does not match the token' } });
    const claimsAnonymous = await server.api('GET', path, {
      token: session.accessToken,
      headers: { 'x-user-id': session.user.uid, 'x-anonymous': 'true' },
    });
    expect(claimsAnonymous).toMatchObject({
      status: 401,
      body: { error: 'x-anonymous is set but the token is not anonymous' },
    });
  });
});
