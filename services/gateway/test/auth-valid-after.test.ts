import { authSession, type AuthSession, REFRESH_COOKIE } from '@qrshirt/contracts';
import {
  type ApiClient,
  as,
  type Browser,
  mailsTo,
  signUp,
  tokenIn,
  uniqueEmail,
  withCookieJar,
} from '@qrshirt/test-support';
import { describeWithRedis } from '@qrshirt/test-support/vitest';
import jwt from 'jsonwebtoken';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testClock } from './support/accounts';
import { startTestServer, type TestServer } from './support/test-server';

/*
 * Ending an account's sessions (a password reset, signing out everywhere, closing it) ends its
 * access tokens too, at once and in every gateway, not when their 15 minutes are up: each is
 * refused if it was issued before that instant, to the millisecond, and works if issued after.
 */

// 100 ms into a second: the test's sign-ins, the ending and the next sign-in fall in one second.
const time = testClock(Math.floor(Date.now() / 1000) * 1000 + 100);
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ clock: time.clock, env: { PUBLIC_BASE_URL: 'https://shirts.example' } });
});
afterAll(() => server?.stop());

const INVALID = { status: 401, body: { error: 'Invalid or expired token' } };
const ENDED = { status: 401, body: { error: 'Your session has ended. Please sign in again.' } };
const readsOwnUser = (api: ApiClient, session: AuthSession) => api('GET', `/api/user/${session.user.uid}`, as(session));
const refreshWith = (token: string | undefined) =>
  server.api('POST', '/api/auth/refresh', { headers: { cookie: `${REFRESH_COOKIE}=${token}` } });
const issuedSecond = (session: AuthSession) => Math.floor((jwt.decode(session.accessToken) as { iat: number }).iat);

async function signIn(browser: Browser, email: string, password: string): Promise<AuthSession> {
  const answer = await browser('POST', '/api/auth/signin', { body: { email, password } });
  expect(answer.status).toBe(200);
  return authSession.parse(answer.body);
}

async function resetLink(email: string): Promise<string> {
  const resetMails = async () =>
    (await mailsTo(server.dataDir, email)).filter((mail) => mail.subject === 'Reset your QR Shirts password');
  expect((await server.api('POST', '/api/auth/password-reset', { body: { email } })).status).toBe(202);
  await expect.poll(async () => (await resetMails()).length).toBe(1);
  return tokenIn((await resetMails())[0]!, 'signin', 'reset');
}

describe('a password reset', () => {
  it('ends the access tokens issued before it, even in the same second, and every session', async () => {
    const email = uniqueEmail('reset').toLowerCase();
    const [phone, laptop] = [withCookieJar(server.api), withCookieJar(server.api)];
    const onPhone = await signUp(phone, { email, password: 'old-password' });
    const onLaptop = await signIn(laptop, email, 'old-password');
    const token = await resetLink(email);

    time.advance(100);
    const reset = await server.api('POST', '/api/auth/password-reset/confirm', {
      body: { token, password: 'new-password' },
    });
    expect(reset.status).toBe(204);
    for (const old of [onPhone, onLaptop]) expect(await readsOwnUser(server.api, old)).toMatchObject(INVALID);
    for (const device of [phone, laptop]) expect(await refreshWith(device.cookie(REFRESH_COOKIE))).toMatchObject(ENDED);

    time.advance(100);
    const after = await signIn(phone, email, 'new-password');
    expect(issuedSecond(after)).toBe(issuedSecond(onPhone));
    expect((await readsOwnUser(server.api, after)).status).toBe(200);
    expect((await phone('POST', '/api/auth/refresh')).status).toBe(200);
  });
});

describe('signing out everywhere', () => {
  it("ends every device's session and access token, and leaves sessions signed in after it working", async () => {
    const email = uniqueEmail('everywhere');
    const [phone, laptop, visitor] = [withCookieJar(server.api), withCookieJar(server.api), withCookieJar(server.api)];
    const onPhone = await signUp(phone, { email });
    const onLaptop = await signIn(laptop, email, 'correct horse');
    const anonymous = authSession.parse((await visitor('POST', '/api/auth/anonymous')).body);
    const phoneToken = phone.cookie(REFRESH_COOKIE);

    time.advance(1);
    const everywhere = await laptop('POST', '/api/auth/signout-everywhere', as(onLaptop));
    expect(everywhere.status).toBe(204);
    expect(laptop.cookie(REFRESH_COOKIE)).toBeUndefined();
    for (const old of [onPhone, onLaptop]) expect(await readsOwnUser(server.api, old)).toMatchObject(INVALID);
    expect(await refreshWith(phoneToken)).toMatchObject(ENDED);
    expect(await phone('POST', '/api/auth/refresh')).toMatchObject(ENDED);
    // Someone else's session is none of its business.
    expect((await server.api('GET', '/api/me', as(anonymous))).status).toBe(200);

    // Signed in again in the same millisecond: issued after, so it works.
    const again = await signIn(laptop, email, 'correct horse');
    expect((await readsOwnUser(server.api, again)).status).toBe(200);
    expect((await laptop('POST', '/api/auth/refresh')).status).toBe(200);
  });

  it('is for a signed-in account', async () => {
    const anonymous = authSession.parse((await server.api('POST', '/api/auth/anonymous')).body);
    expect((await server.api('POST', '/api/auth/signout-everywhere', as(anonymous))).status).toBe(403);
    expect((await server.api('POST', '/api/auth/signout-everywhere')).status).toBe(401);
  });
});

/*
 * Once the read model has seen an account closed, its tokens find nobody (404, as
 * account-closing.test.ts shows); until then, and in a gateway whose read models another
 * process writes, the time its sessions ended refuses them.
 */
describeWithRedis(
  'closing an account, seen by a gateway whose read models lag',
  (redis) => {
    it('ends the access tokens issued before it at once', async () => {
      const lagging = await startTestServer({
        clock: time.clock,
        env: { REDIS_URL: redis.url, PROJECTIONS: 'off', SEED_CATALOG: 'false' },
      });
      try {
        const device = withCookieJar(lagging.api);
        const session = await signUp(device);
        expect((await readsOwnUser(lagging.api, session)).status).toBe(200);
        time.advance(1);
        const closed = await lagging.api('DELETE', `/api/user/${session.user.uid}`, {
          ...as(session),
          body: { password: 'correct horse' },
        });
        expect(closed.status).toBe(204);
        expect(await readsOwnUser(lagging.api, session)).toMatchObject(INVALID);
        expect((await device('POST', '/api/auth/refresh')).status).toBe(401);
      } finally {
        await lagging.stop();
      }
    });
  },
  { ownServer: true },
);
