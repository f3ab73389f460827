import { me, verifyEmailAnswer } from '@qrshirt/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL } from './support/admin';
import { as, latestMail, mailsTo, signUp, tokenIn, uniqueEmail, waitForMails } from '@qrshirt/test-support';
import { DAY, testClock } from './support/accounts';
import { outboxSent } from './support/outbox';
import { anonymousToken, startTestServer, type TestServer } from './support/test-server';

/** Listed in ADMIN_EMAILS, held by nobody until an account moves to it. */
const LISTED_LATER = `later.${process.pid}@shirts-admin.example`;
const time = testClock();
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({
    clock: time.clock,
    env: { PUBLIC_BASE_URL: 'https://shirts.example/', ADMIN_EMAILS: `${ADMIN_EMAIL},${LISTED_LATER}` },
  });
});
afterAll(() => server.stop());

const UNKNOWN = 'This verification link is unknown, used or expired. Ask for a new one from your dashboard.';

type Session = Parameters<typeof as>[0];
/** Follows a link signed in as `session` (null: signed out). */
const verify = (session: Session | null, token: unknown) =>
  server.api('POST', '/api/auth/verify-email', { ...(session && as(session)), body: { token } });
const preview = (session: Session | null, token: unknown) =>
  server.api('POST', '/api/auth/verify-email/preview', { ...(session && as(session)), body: { token } });
const resend = (options: object) => server.api('POST', '/api/auth/verify-email/resend', options);
const meOf = async (session: Session) => me.parse((await server.api('GET', '/api/me', as(session))).body);

/** Each test from an address of its own: the mail limits count per client address. */
let client = 0;
const from = () => ({ 'x-forwarded-for': `198.51.100.${++client}` });

describe('address verification', () => {
  it('mails a link on sign-up whose token verifies the address once', async () => {
    const email = uniqueEmail('verify');
    const session = await signUp(server.api, { email });
    expect(await meOf(session)).toMatchObject({ emailVerified: false, admin: false });

    const mail = await latestMail(server.dataDir, email);
    expect(mail.subject).toBe('Confirm your email address');
    expect(mail.text).toContain('https://shirts.example/verify-email#token=');
    expect(mail.html).toContain('https://shirts.example/verify-email#token=');
    expect(mail.text).toContain('QR Shirts');
    const token = tokenIn(mail, 'verify-email');

    const verified = await verify(session, token);
    expect(verified.status).toBe(200);
    expect(verifyEmailAnswer.parse(verified.body)).toEqual({ email, emailVerified: true });
    expect(await meOf(session)).toMatchObject({ emailVerified: true });

    const again = await verify(session, token);
    expect({ status: again.status, body: again.body }).toEqual({ status: 400, body: { error: UNKNOWN } });
  });

  it('names the account that asked, and verifies only with its session: signed out or as another, the link stays', async () => {
    const email = uniqueEmail('bound');
    const session = await signUp(server.api, { email, displayName: 'Grace' });
    const other = await signUp(server.api, { displayName: 'Mallory' });
    const mail = await latestMail(server.dataDir, email);
    expect(mail.text).toContain('Account Grace asked to use this address on QR Shirts.');
    expect(mail.html).toContain('Account Grace asked to use this address on QR Shirts.');
    const token = tokenIn(mail, 'verify-email');

    expect(await preview(null, token)).toMatchObject({
      status: 200,
      body: { email, displayName: 'Grace', change: false, yours: false },
    });
    expect((await preview(session, token)).body).toMatchObject({ yours: true });
    expect((await preview(null, 'made-up-token')).body).toEqual({ error: UNKNOWN });

    const signedOut = await verify(null, token);
    expect({ status: signedOut.status, body: signedOut.body }).toEqual({
      status: 401,
      body: { error: 'sign-in-required' },
    });
    const anonymous = await server.api('POST', '/api/auth/verify-email', {
      token: anonymousToken('anon-verifier'),
      headers: { 'x-anonymous': 'true' },
      body: { token },
    });
    expect(anonymous).toMatchObject({ status: 401, body: { error: 'sign-in-required' } });
    const another = await verify(other, token);
    expect(another.status).toBe(403);
    expect(another.body.error).toEqual(expect.any(String));
    expect(await meOf(session)).toMatchObject({ emailVerified: false });
    expect(await meOf(other)).toMatchObject({ emailVerified: false });

    expect((await verify(session, token)).status).toBe(200);
    expect(await meOf(session)).toMatchObject({ emailVerified: true });
  });

  it('names an account without a display name as such', async () => {
    const email = uniqueEmail('nameless');
    await signUp(server.api, { email, displayName: '' });
    expect((await latestMail(server.dataDir, email)).text).toContain(
      'An account without a name asked to use this address on QR Shirts.',
    );
  });

  it('answers unknown tokens and malformed bodies with 400 and a JSON error', async () => {
    expect(await verify(null, 'made-up-token')).toMatchObject({ status: 400, body: { error: UNKNOWN } });
    for (const token of ['', 42, null, 'x'.repeat(513)]) {
      const answer = await verify(null, token);
      expect(answer.status, JSON.stringify(token)).toBe(400);
      expect(answer.body.error).toEqual(expect.any(String));
    }
    const raw = await server.api('POST', '/api/auth/verify-email', { rawBody: '{"token":' });
    expect(raw.status).toBe(400);
    expect(raw.body.error).toEqual(expect.any(String));
  });

  it('resends a fresh link to a signed-in, unverified account; both links work until one is used', async () => {
    const email = uniqueEmail('resend');
    const session = await signUp(server.api, { email });
    const first = tokenIn(await latestMail(server.dataDir, email), 'verify-email');
    const headers = from();
    expect((await resend({ ...as(session), headers: { ...as(session).headers, ...headers } })).status).toBe(202);
    const mails = await waitForMails(server.dataDir, email, 2);
    const second = tokenIn(mails[1]!, 'verify-email');
    expect(second).not.toBe(first);
    // Every message keeps its own Message-ID.
    expect(new Set(mails.map((mail) => mail.messageId)).size).toBe(2);
    expect((await verify(session, second)).status).toBe(200);
    // Verified: the older link has nothing left to do, and no more links are sent.
    expect((await verify(session, first)).status).toBe(200);
    const again = await resend({ ...as(session), headers: { ...as(session).headers, ...headers } });
    expect({ status: again.status, body: again.body }).toEqual({
      status: 409,
      body: { error: 'Your email address is already verified' },
    });
  });

  it('refuses resending without a token (401) and to anonymous sessions (403)', async () => {
    expect((await resend({})).status).toBe(401);
    expect((await resend({ token: 'not-a-token' })).status).toBe(401);
    const anonymous = await resend({ token: anonymousToken('anon-verify'), headers: { 'x-anonymous': 'true' } });
    expect(anonymous.status).toBe(403);
    expect(anonymous.body.error).toEqual(expect.any(String));
  });

  it('sends at most 3 links an hour to one account', async () => {
    const email = uniqueEmail('eager');
    const session = await signUp(server.api, { email });
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 4; attempt++) {
      // From a new client address each time: the limit per account holds on its own.
      statuses.push((await resend({ ...as(session), headers: { ...as(session).headers, ...from() } })).status);
    }
    expect(statuses).toEqual([202, 202, 202, 429]);
    const refused = await resend({ ...as(session), headers: { ...as(session).headers, ...from() } });
    expect(refused.body).toEqual({
      error: 'Too many failed attempts. Please try again later.',
      code: 'too-many-requests',
    });
    // The sign-up's link and three more: the refused ones stored nothing.
    expect(await outboxSent(server.dataDir, { to: email })).toHaveLength(4);
    expect(await mailsTo(server.dataDir, email)).toHaveLength(4);
  });
});

describe('the development outbox', () => {
  it('is gone in development too: links and codes are mail and files now, not an endpoint', async () => {
    const answer = await server.api('GET', '/api/dev/outbox');
    expect({ status: answer.status, body: answer.body }).toEqual({
      status: 404,
      body: { error: 'No such endpoint: GET /api/dev/outbox' },
    });
  });
});

describe('admin rights need a verified address', () => {
  it('an account signed up with an ADMIN_EMAILS address is an admin only once it followed the link', async () => {
    const session = await signUp(server.api, { email: ADMIN_EMAIL });
    expect(await meOf(session)).toMatchObject({ admin: false, emailVerified: false });
    expect((await server.api('GET', '/api/admin/overview', as(session))).status).toBe(403);

    expect((await verify(session, tokenIn(await latestMail(server.dataDir, ADMIN_EMAIL), 'verify-email'))).status).toBe(
      200,
    );
    expect(await meOf(session)).toMatchObject({ admin: true, emailVerified: true });
    expect((await server.api('GET', '/api/admin/overview', as(session))).status).toBe(200);
  });

  it('never comes from a change of address: an account that moved to a listed address is no admin', async () => {
    const session = await signUp(server.api, { email: uniqueEmail('mover') });
    expect(
      (
        await server.api('POST', `/api/user/${session.user.uid}/email`, {
          ...as(session),
          body: { email: LISTED_LATER },
        })
      ).status,
    ).toBe(202);
    const link = new URLSearchParams(
      /\/verify-email#(\S+)/.exec((await latestMail(server.dataDir, LISTED_LATER)).text)![1],
    );
    const moved = await server.api('POST', '/api/auth/verify-email', {
      ...as(session),
      body: { token: link.get('token'), email: link.get('email') },
    });
    expect(moved.body).toEqual({ email: LISTED_LATER, emailVerified: true, changed: true });
    expect(await meOf(session)).toMatchObject({ admin: false, emailVerified: true });
    expect((await server.api('GET', '/api/admin/overview', as(session))).status).toBe(403);
  });
});

describe('password reset', () => {
  it('verifies the address too: the link was mailed to it', async () => {
    const email = uniqueEmail('reset-verifies');
    const session = await signUp(server.api, { email });
    expect((await server.api('POST', '/api/auth/password-reset', { body: { email }, headers: from() })).status).toBe(
      202,
    );
    const mails = await waitForMails(server.dataDir, email, 2);
    const token = tokenIn(
      mails.find((mail) => mail.text.includes('#reset='))!,
      'signin',
      'reset',
    );
    expect(
      (await server.api('POST', '/api/auth/password-reset/confirm', { body: { token, password: 'a-new-password' } }))
        .status,
    ).toBe(204);
    expect(await meOf(session)).toMatchObject({ emailVerified: true });
  });
});

describe('links that are too old', () => {
  // Last in the file: it moves the server's clock a day ahead, past every token minted before.
  it('expires the link after 24 hours', async () => {
    const email = uniqueEmail('late');
    await signUp(server.api, { email });
    const token = tokenIn(await latestMail(server.dataDir, email), 'verify-email');
    time.advance(DAY + 1_000);
    expect(await verify(null, token)).toMatchObject({ status: 400, body: { error: UNKNOWN } });
    const again = await server.api('POST', '/api/auth/signin', { body: { email, password: 'correct horse' } });
    expect(await meOf(again.body)).toMatchObject({ emailVerified: false });
  });
});
