import { authSession, REFRESH_COOKIE } from '@qrshirt/contracts';
import { OAuth2Server } from 'oauth2-mock-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, freePort, latestMail, signUp, tokenIn, uniqueEmail, withCookieJar } from '@qrshirt/test-support';
import { testClock } from './support/accounts';
import { startTestServer, type TestServer } from './support/test-server';

/** What Google's userinfo endpoint answers for the next sign-in. */
interface GoogleProfile {
  sub: string;
  email?: string;
  email_verified?: boolean;
  name?: string;
  picture?: string;
}

const time = testClock();
let google: OAuth2Server;
let server: TestServer;

beforeAll(async () => {
  google = new OAuth2Server();
  await google.issuer.keys.generate('RS256');
  await google.start(0, '127.0.0.1');
  const port = await freePort();
  const issuer = google.issuer.url!;
  server = await startTestServer({
    clock: time.clock,
    env: {
      PORT: String(port),
      GOOGLE_CLIENT_ID: 'qrshirt-test-client',
      GOOGLE_CLIENT_SECRET: 'qrshirt-test-secret',
      GOOGLE_CALLBACK_URL: `http://127.0.0.1:${port}/api/auth/google/callback`,
      GOOGLE_AUTHORIZATION_URL: `${issuer}/authorize`,
      GOOGLE_TOKEN_URL: `${issuer}/token`,
      GOOGLE_USERINFO_URL: `${issuer}/userinfo`,
    },
  });
});
afterAll(async () => {
  await server?.stop();
  await google?.stop();
});

const get = (url: string, cookie?: string) => fetch(url, { redirect: 'manual', headers: cookie ? { cookie } : {} });

/**
 * A browser's trip: our redirect to the provider (keeping the state cookie), the provider's
 * redirect back to our callback, and where the callback sends the browser.
 */
async function googleTrip(profile: GoogleProfile, options: { deny?: boolean; dropCookie?: boolean } = {}) {
  const start = await get(`${server.url}/api/auth/google`);
  expect(start.status).toBe(302);
  const authorizeUrl = new URL(start.headers.get('location')!);
  expect(authorizeUrl.origin + authorizeUrl.pathname).toBe(`${google.issuer.url}/authorize`);
  expect(authorizeUrl.searchParams.get('client_id')).toBe('qrshirt-test-client');
  expect(authorizeUrl.searchParams.get('state')).toEqual(expect.any(String));
  const setCookies = start.headers.getSetCookie();
  expect(setCookies).toHaveLength(2);
  for (const setCookie of setCookies) {
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
  }
  expect(setCookies.find((setCookie) => setCookie.startsWith('qr_google_browser='))).toMatch(/Path=\/api\/auth;/);
  // The browser's cookies: both reach the callback, the binding also reaches /api/auth/exchange.
  const cookie = setCookies.map((setCookie) => setCookie.split(';')[0]!).join('; ');
  const browser = setCookies.find((setCookie) => setCookie.startsWith('qr_google_browser='))!.split(';')[0]!;

  google.service.once('beforeUserinfo', (userinfo) => {
    userinfo.body = profile;
  });
  if (options.deny) {
    google.service.once('beforeAuthorizeRedirect', (redirect) => {
      redirect.url.searchParams.delete('code');
      redirect.url.searchParams.set('error', 'access_denied');
    });
  }
  const consent = await get(authorizeUrl.href);
  expect(consent.status).toBe(302);
  const callback = await get(consent.headers.get('location')!, options.dropCookie ? undefined : cookie);
  expect(callback.status).toBe(302);
  return { location: callback.headers.get('location')!, browser };
}

/** Where the callback sent the browser. */
const signInWithGoogle = async (profile: GoogleProfile, options: { deny?: boolean; dropCookie?: boolean } = {}) =>
  (await googleTrip(profile, options)).location;

const exchange = (code: string, browser?: string) =>
  server.api('POST', '/api/auth/exchange', { body: { code }, ...(browser && { headers: { cookie: browser } }) });

/** The whole sign-in in one browser: the trip, then the code traded with that browser's cookie. */
async function signedInWithGoogle(profile: GoogleProfile) {
  const { location, browser } = await googleTrip(profile);
  const code = /^\/signin#google=([A-Za-z0-9_-]+)$/.exec(location)?.[1];
  expect(code, location).toBeDefined();
  const answer = await exchange(code!, browser);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  const [binding, refresh] = answer.headers.getSetCookie();
  expect(binding).toMatch(/^qr_google_browser=;/);
  expect(refresh).toMatch(new RegExp(`^${REFRESH_COOKIE}=[^;]+;.*; HttpOnly; Secure; SameSite=Strict$`));
  return { code: code!, browser, session: authSession.parse(answer.body) };
}

let nextSub = 0;
const newSub = () => `google-${process.pid}-${++nextSub}`;

describe('Google sign-in against a real OAuth2 server', () => {
  it('signs a new user in through the redirects and a one-time code, and the same Google account again later', async () => {
    const email = uniqueEmail('grace').toLowerCase();
    const profile = {
      sub: newSub(),
      email,
      email_verified: true,
      name: 'Grace Hopper',
      picture: 'https://img.example/grace.png',
    };
    const { code, browser, session } = await signedInWithGoogle(profile);
    expect(session.user).toEqual({
      uid: session.user.uid,
      anonymous: false,
      email,
      displayName: 'Grace Hopper',
      photoURL: 'https://img.example/grace.png',
    });
    expect((await server.api('GET', `/api/user/${session.user.uid}`, as(session))).status).toBe(200);
    expect(await exchange(code, browser)).toMatchObject({ status: 401, body: { code: 'code-expired' } });

    const again = await signedInWithGoogle(profile);
    expect(again.session.user.uid).toBe(session.user.uid);
    const stream = await server.embedded.eventStore.readStream(`user-${session.user.uid}`);
    expect(stream.map((event) => [event.type, (event.data as { method?: string }).method])).toEqual([
      ['UserRegistered', 'google'],
      ['UserSignedIn', 'google'],
    ]);
  });

  it('links a verified Google email to the account that signed up with it and verified it', async () => {
    const email = uniqueEmail('linked');
    const device = withCookieJar(server.api);
    const account = await signUp(device, { email, password: 'password-first' });
    const token = tokenIn(await latestMail(server.dataDir, email), 'verify-email');
    expect((await server.api('POST', '/api/auth/verify-email', { ...as(account), body: { token } })).status).toBe(200);
    const { session } = await signedInWithGoogle({
      sub: newSub(),
      email: email.toUpperCase(),
      email_verified: true,
      name: 'G',
    });
    expect(session.user.uid).toBe(account.user.uid);
    expect(session.user.email).toBe(email);
    // The password still works too, and so do the account's sessions.
    expect(
      (await server.api('POST', '/api/auth/signin', { body: { email, password: 'password-first' } })).body.user.uid,
    ).toBe(account.user.uid);
    expect((await device('POST', '/api/auth/refresh')).status).toBe(200);
  });

  it('takes over an unverified password account holding the address: the password goes, every session ends', async () => {
    const email = uniqueEmail('squatted');
    const device = withCookieJar(server.api);
    const squatter = await signUp(device, { email, password: 'squatters-password' });
    time.advance(1);
    const { session } = await signedInWithGoogle({ sub: newSub(), email, email_verified: true, name: 'Real Owner' });
    expect(session.user.uid).toBe(squatter.user.uid);
    expect(session.user.displayName).toBe('Real Owner');
    expect((await server.api('GET', '/api/me', as(session))).body).toMatchObject({ emailVerified: true });
    expect((await device('POST', '/api/auth/refresh')).status).toBe(401);
    expect((await server.api('GET', '/api/me', as(squatter))).status).toBe(401);
    expect(
      (await server.api('POST', '/api/auth/signin', { body: { email, password: 'squatters-password' } })).status,
    ).toBe(401);
  });

  it('ends the links the squatter had mailed: a change of address would take the account back', async () => {
    const email = uniqueEmail('squatted-again');
    const squatter = await signUp(server.api, { email, password: 'squatters-password' });
    const hideout = uniqueEmail('hideout');
    const asked = await server.api('POST', `/api/user/${squatter.user.uid}/email`, {
      ...as(squatter),
      body: { email: hideout },
    });
    expect(asked.status).toBe(202);
    const change = new URLSearchParams(
      /\/verify-email#(\S+)/.exec((await latestMail(server.dataDir, hideout)).text)![1],
    );

    const { session } = await signedInWithGoogle({ sub: newSub(), email, email_verified: true, name: 'Real Owner' });
    expect(session.user.uid).toBe(squatter.user.uid);
    // Even the owner, signed in as the account that asked, led to open it: the link is gone.
    const followed = await server.api('POST', '/api/auth/verify-email', {
      ...as(session),
      body: { token: change.get('token'), email: change.get('email') },
    });
    expect(followed.status).toBe(400);
    expect((await server.api('GET', `/api/user/${session.user.uid}`, as(session))).body.email).toBe(email);
  });

  it('is not pre-hijacked: the owner opening a squatter’s verification link verifies nothing, so Google takes over', async () => {
    const email = uniqueEmail('pre-hijacked');
    const squatter = await signUp(server.api, { email, password: 'squatters-password', displayName: 'Squatter' });
    const token = tokenIn(await latestMail(server.dataDir, email), 'verify-email');
    // The owner reads the mail, which names the account that asked, and opens its link signed out.
    expect((await latestMail(server.dataDir, email)).text).toContain('Account Squatter asked to use this address');
    const opened = await server.api('POST', '/api/auth/verify-email', { body: { token } });
    expect({ status: opened.status, body: opened.body }).toEqual({ status: 401, body: { error: 'sign-in-required' } });
    expect((await server.api('GET', '/api/me', as(squatter))).body).toMatchObject({ emailVerified: false });

    time.advance(1);
    const { session } = await signedInWithGoogle({ sub: newSub(), email, email_verified: true, name: 'Real Owner' });
    expect(session.user.uid).toBe(squatter.user.uid);
    expect(
      (await server.api('POST', '/api/auth/signin', { body: { email, password: 'squatters-password' } })).status,
    ).toBe(401);
    expect((await server.api('GET', '/api/me', as(squatter))).status).toBe(401);
  });

  it('verifies the address of a new account made by Google', async () => {
    const { session } = await signedInWithGoogle({
      sub: newSub(),
      email: uniqueEmail('fresh'),
      email_verified: true,
      name: 'New',
    });
    expect((await server.api('GET', '/api/me', as(session))).body).toMatchObject({ emailVerified: true });
  });

  it('signs nobody in with a code carried to another browser, and lets the right browser use it once', async () => {
    const { location, browser } = await googleTrip({
      sub: newSub(),
      email: uniqueEmail('bound'),
      email_verified: true,
    });
    const code = location.split('=')[1]!;
    const elsewhere = (await googleTrip({ sub: newSub(), email: uniqueEmail('other'), email_verified: true })).browser;
    expect(await exchange(code)).toMatchObject({ status: 401, body: { code: 'code-expired' } });
    expect(await exchange(code, elsewhere)).toMatchObject({ status: 401, body: { code: 'code-expired' } });
    expect((await exchange(code, browser)).status).toBe(200);
    expect(await exchange(code, browser)).toMatchObject({ status: 401, body: { code: 'code-expired' } });
  });

  it('refuses to link an email Google has not verified', async () => {
    const email = uniqueEmail('unverified');
    await signUp(server.api, { email });
    const location = await signInWithGoogle({ sub: newSub(), email, email_verified: false, name: 'Impostor' });
    expect(location).toBe('/signin#error=email-already-in-use');
  });

  it('reports a cancelled consent and a callback without this browser’s state', async () => {
    expect(await signInWithGoogle({ sub: newSub() }, { deny: true })).toBe('/signin#error=popup-closed-by-user');
    expect(
      await signInWithGoogle({ sub: newSub(), email: uniqueEmail(), email_verified: true }, { dropCookie: true }),
    ).toBe('/signin#error=cancelled-popup-request');
  });

  it('lets the one-time code expire after a minute', async () => {
    const { location, browser } = await googleTrip({ sub: newSub(), email: uniqueEmail(), email_verified: true });
    time.advance(61_000);
    const code = location.split('=')[1]!;
    expect(await exchange(code, browser)).toMatchObject({
      status: 401,
      body: { code: 'code-expired', error: 'Verification code has expired. Please request a new code.' },
    });
  });
});

describe('Google sign-in without configuration', () => {
  it('answers 503 with the message the client shows', async () => {
    const bare = await startTestServer();
    try {
      const answer = await bare.api('GET', '/api/auth/google');
      expect(answer).toMatchObject({ status: 503, body: { error: 'Google sign-in is not configured' } });
    } finally {
      await bare.stop();
    }
  });
});
