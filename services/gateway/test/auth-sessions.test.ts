import { authSession, REFRESH_COOKIE } from '@qrshirt/contracts';
import { REFRESH_REUSE_GRACE_MS } from '@qrshirt/core';
import jwt from 'jsonwebtoken';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  as,
  type Browser,
  newClient,
  signUp,
  TEST_JWT_SECRET,
  uniqueEmail,
  withCookieJar,
} from '@qrshirt/test-support';
import { DAY, MINUTE, testClock } from './support/accounts';
import { startTestServer, type TestServer } from './support/test-server';

const time = testClock();
const PUBLIC_BASE_URL = 'https://shirts.example';
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ clock: time.clock, env: { PUBLIC_BASE_URL } });
});
afterAll(() => server.stop());

/** Each test plays one or more browsers: the refresh token lives in their cookie jars. */
const browser = () => withCookieJar(server.api);
const refresh = (from: Browser) => from('POST', '/api/auth/refresh');
/** A request with this refresh token in its cookie, as a stolen copy would be sent. */
const refreshWith = (token: string | undefined) =>
  server.api('POST', '/api/auth/refresh', { headers: { cookie: `${REFRESH_COOKIE}=${token}` } });
const ENDED = { status: 401, body: { error: 'Your session has ended. Please sign in again.' } };

describe('refresh tokens', () => {
  it('keeps a user signed in for days: the access token expires, the refresh cookie renews it', async () => {
    const device = browser();
    const session = await signUp(device);
    const me = () => server.api('GET', `/api/user/${session.user.uid}`, as(session));
    expect((await me()).status).toBe(200);

    time.advance(15 * MINUTE + 1_000);
    expect(await me()).toMatchObject({ status: 401, body: { error: 'Invalid or expired token' } });

    // The client may still send its expired token along with the refresh.
    const renewed = await device('POST', '/api/auth/refresh', { token: session.accessToken });
    expect(renewed.status).toBe(200);
    const next = authSession.parse(renewed.body);
    expect(next.user).toEqual(session.user);
    expect((await server.api('GET', `/api/user/${next.user.uid}`, as(next))).status).toBe(200);

    time.advance(29 * DAY);
    expect((await refresh(device)).status).toBe(200);
    time.advance(31 * DAY);
    expect(await refresh(device)).toMatchObject(ENDED);
  });

  it('ends a session 90 days after it started, however often it was refreshed', async () => {
    const device = browser();
    await signUp(device);
    for (let day = 20; day <= 80; day += 20) {
      time.advance(20 * DAY);
      expect((await refresh(device)).status, `day ${day}`).toBe(200);
    }
    time.advance(9 * DAY);
    const day89 = await refresh(device);
    expect(day89.status).toBe(200);
    // The cookie lives as long as the session has left, not the 30 days of an idle one.
    expect(day89.headers.getSetCookie()[0]).toMatch(/Max-Age=86400(;|$)/);
    time.advance(DAY + 1_000);
    expect(await refresh(device)).toMatchObject(ENDED);
  });

  it('makes a used refresh token worthless, and ends the session when a used one comes back', async () => {
    const device = browser();
    const first = await signUp(device);
    const firstToken = device.cookie(REFRESH_COOKIE);
    expect((await refresh(device)).status).toBe(200);
    expect(device.cookie(REFRESH_COOKIE)).not.toBe(firstToken);

    // Someone replays the first token (a stolen copy) after the grace for a lost answer: refused,
    // and the session it began ends.
    time.advance(REFRESH_REUSE_GRACE_MS + 1);
    expect((await refreshWith(firstToken)).status).toBe(401);
    expect(await refresh(device)).toMatchObject(ENDED);

    // Sessions on other devices are separate.
    const elsewhere = browser();
    const signIn = await elsewhere('POST', '/api/auth/signin', {
      body: { email: first.user.email, password: 'correct horse' },
    });
    expect(signIn.status).toBe(200);
    expect((await refresh(elsewhere)).status).toBe(200);
  });

  it('rotates a used token again for seconds after, as when a page was left before its answer came', async () => {
    const device = browser();
    await signUp(device);
    // The server rotated, but the browser left the page first and kept its cookie.
    const lost = await refreshWith(device.cookie(REFRESH_COOKIE));
    expect(lost.status).toBe(200);
    const lostToken = /^[^=]+=([^;]+)/.exec(lost.headers.getSetCookie()[0]!)?.[1];

    time.advance(REFRESH_REUSE_GRACE_MS - 1_000);
    expect((await refresh(device)).status).toBe(200);
    time.advance(MINUTE);
    expect((await refresh(device)).status).toBe(200);
    // The token of the answer that never arrived is a copy nobody should hold: it ends the session.
    expect((await refreshWith(lostToken)).status).toBe(401);
    expect(await refresh(device)).toMatchObject(ENDED);
  });

  it('refreshes anonymous sessions as anonymous', async () => {
    const device = browser();
    const anonymous = authSession.parse((await device('POST', '/api/auth/anonymous')).body);
    const renewed = authSession.parse((await refresh(device)).body);
    expect(renewed.user).toEqual(anonymous.user);
    expect((await server.api('GET', '/api/charities', as(renewed))).status).toBe(200);
  });

  it('refuses a refresh without the cookie, and made-up and malformed ones', async () => {
    expect(await server.api('POST', '/api/auth/refresh')).toMatchObject({
      status: 401,
      body: { error: 'No session to refresh. Please sign in.' },
    });
    expect((await refreshWith('not-a-token')).status).toBe(401);
    expect((await refreshWith('family.secret')).status).toBe(401);
    expect((await refreshWith('x'.repeat(4096))).status).toBe(401);
    // A token in the body, where it used to go, is no longer read.
    const device = browser();
    await signUp(device);
    const inBody = await server.api('POST', '/api/auth/refresh', {
      body: { refreshToken: device.cookie(REFRESH_COOKIE) },
    });
    expect(inBody.status).toBe(401);
  });
});

describe('the refresh cookie', () => {
  const ATTRIBUTES = new RegExp(
    `^${REFRESH_COOKIE}=[\\w-]+\\.[\\w-]+; Max-Age=\\d+; Path=/api/auth; Expires=[^;]+; HttpOnly; Secure; SameSite=Strict$`,
  );

  it('is set HttpOnly, Secure, SameSite=Strict on /api/auth by every route that starts or renews a session, and no body holds it', async () => {
    const device = browser();
    const email = uniqueEmail('cookie');
    const answers = {
      signUp: await device('POST', '/api/auth/signup', {
        body: { email, password: 'correct horse', displayName: 'Cookie' },
        headers: newClient(),
      }),
      signIn: await device('POST', '/api/auth/signin', { body: { email, password: 'correct horse' } }),
      refresh: await refresh(device),
      anonymous: await device('POST', '/api/auth/anonymous', { headers: newClient() }),
    };
    for (const [route, answer] of Object.entries(answers)) {
      const [setCookie, ...more] = answer.headers.getSetCookie();
      expect({ route, more, setCookie }).toEqual({ route, more: [], setCookie: expect.stringMatching(ATTRIBUTES) });
      expect(Object.keys(answer.body as object).sort(), route).toEqual(['accessToken', 'expiresIn', 'user']);
      const token = setCookie!.split(';')[0]!.split('=')[1]!;
      expect(JSON.stringify(answer.body), route).not.toContain(token.split('.')[1]!);
    }
    expect(answers.signUp.headers.getSetCookie()[0]).toMatch(/Max-Age=2592000;/);
  });

  it('refuses a refresh or sign-out another site asks for, and leaves the session as it was', async () => {
    const device = browser();
    await signUp(device);
    const token = device.cookie(REFRESH_COOKIE);
    const crossSite: Record<string, string>[] = [
      { origin: 'https://evil.example' },
      { origin: 'null' },
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'cross-site', origin: server.url },
    ];
    for (const headers of crossSite) {
      for (const path of ['/api/auth/refresh', '/api/auth/signout']) {
        const answer = await device('POST', path, { headers });
        expect({ path, headers, status: answer.status, body: answer.body }).toEqual({
          path,
          headers,
          status: 403,
          body: { error: 'This request must come from this site' },
        });
        expect(answer.headers.getSetCookie()).toEqual([]);
      }
    }
    expect(device.cookie(REFRESH_COOKIE)).toBe(token);
    // The web client's own pages: this origin, or PUBLIC_BASE_URL's (the client on another host).
    for (const headers of [
      { origin: server.url, 'sec-fetch-site': 'same-origin' },
      { origin: PUBLIC_BASE_URL, 'sec-fetch-site': 'same-site' },
    ]) {
      expect((await device('POST', '/api/auth/refresh', { headers })).status).toBe(200);
    }
  });
});

describe('sign out', () => {
  it('ends the session and clears the cookie', async () => {
    const device = browser();
    const session = await signUp(device);
    const token = device.cookie(REFRESH_COOKIE);
    const signOut = await device('POST', '/api/auth/signout', as(session));
    expect(signOut.status).toBe(204);
    expect(signOut.headers.getSetCookie()).toEqual([
      `${REFRESH_COOKIE}=; Path=/api/auth; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; Secure; SameSite=Strict`,
    ]);
    expect(device.cookie(REFRESH_COOKIE)).toBeUndefined();
    expect(await refreshWith(token)).toMatchObject(ENDED);
    expect((await device('POST', '/api/auth/signout')).status).toBe(204);
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
