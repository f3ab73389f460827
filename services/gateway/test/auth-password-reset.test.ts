import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  as,
  latestMail,
  mailsTo,
  signUp,
  tokenIn,
  uniqueEmail,
  waitForMails,
  withCookieJar,
} from '@qrshirt/test-support';
import { expectAuthError, MINUTE, testClock } from './support/accounts';
import { startTestServer, type TestServer } from './support/test-server';

const time = testClock();
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ clock: time.clock, env: { PUBLIC_BASE_URL: 'https://shirts.example/' } });
});
afterAll(() => server.stop());

const EXPIRED = 'Verification code has expired. Please request a new code.';

/** Each request from a client address of its own: reset mails are limited per address. */
let client = 0;
const resetRequest = (email: string) =>
  server.api('POST', '/api/auth/password-reset', {
    body: { email },
    headers: { 'x-forwarded-for': `198.51.100.${++client}` },
  });

const RESET_SUBJECT = 'Reset your QR Shirts password';
const resetMails = async (email: string) =>
  (await mailsTo(server.dataDir, email)).filter((mail) => mail.subject === RESET_SUBJECT);

/** Asks for a reset link and reads it from the mail the server wrote, as the user reads their mail. */
async function requestResetLink(email: string): Promise<string> {
  const before = (await resetMails(email)).length;
  expect((await resetRequest(email)).status).toBe(202);
  await expect.poll(async () => (await resetMails(email)).length).toBe(before + 1);
  const mail = (await resetMails(email)).at(-1)!;
  expect(mail.text).toContain('https://shirts.example/signin#reset=');
  return tokenIn(mail, 'signin', 'reset');
}

const confirm = (token: string, password: string) =>
  server.api('POST', '/api/auth/password-reset/confirm', { body: { token, password } });
const signIn = (email: string, password: string) =>
  server.api('POST', '/api/auth/signin', { body: { email, password } });

describe('password reset', () => {
  it('emails a link whose token sets a new password once and ends the old sessions', async () => {
    const email = uniqueEmail('forgetful');
    const before = withCookieJar(server.api);
    await signUp(before, { email, password: 'old-password' });
    const token = await requestResetLink(email.toLowerCase());

    expect(await confirm(token, 'new-password')).toMatchObject({ status: 204 });
    expect((await signIn(email, 'new-password')).status).toBe(200);
    expect((await signIn(email, 'old-password')).status).toBe(401);
    expect((await before('POST', '/api/auth/refresh')).status).toBe(401);
    expectAuthError(await confirm(token, 'another-password'), 400, 'code-expired', EXPIRED);
  });

  it('ends every link mailed for the account before: a squatter’s kept links do nothing once the owner is back', async () => {
    const email = uniqueEmail('squatted');
    const hideout = uniqueEmail('hideout');
    const squatter = await signUp(server.api, { email, password: 'squatters-password' });
    const verification = tokenIn(await latestMail(server.dataDir, email), 'verify-email');
    expect(
      (await server.api('POST', `/api/user/${squatter.user.uid}/email`, { ...as(squatter), body: { email: hideout } }))
        .status,
    ).toBe(202);
    const kept = new URLSearchParams(/\/verify-email#(\S+)/.exec((await latestMail(server.dataDir, hideout)).text)![1]);

    expect(await confirm(await requestResetLink(email), 'the-owners-password')).toMatchObject({ status: 204 });
    const owner = await signIn(email, 'the-owners-password');
    // Followed even by the owner's own session, the links are gone.
    for (const body of [{ token: kept.get('token'), email: kept.get('email') }, { token: verification }]) {
      const followed = await server.api('POST', '/api/auth/verify-email', { ...as(owner.body), body });
      expect(followed.status).toBe(400);
    }
    expect((await signIn(hideout, 'the-owners-password')).status).toBe(401);
    expect((await server.api('GET', `/api/user/${squatter.user.uid}`, as(owner.body))).body.email).toBe(email);
  });

  it('answers the same for an address without an account, and mails it no link, only a note', async () => {
    const nobody = uniqueEmail('nobody').toLowerCase();
    const somebody = uniqueEmail('somebody');
    await signUp(server.api, { email: somebody });
    const forNobody = await resetRequest(nobody);
    const forSomebody = await resetRequest(somebody);
    expect({ status: forNobody.status, body: forNobody.body }).toEqual({
      status: forSomebody.status,
      body: forSomebody.body,
    });
    expect(forNobody.status).toBe(202);
    // The sign-up's verification link, then the reset link.
    expect((await waitForMails(server.dataDir, somebody, 2)).map((mail) => mail.subject).sort()).toEqual([
      'Confirm your email address',
      RESET_SUBJECT,
    ]);
    const [note] = await waitForMails(server.dataDir, nobody, 1);
    expect(note!.subject).toBe('About your password reset request');
    expect(note!.text).toContain('no account uses it');
    expect(note!.text).not.toContain('#reset=');
  });

  it('expires the link after an hour', async () => {
    const email = uniqueEmail('slow');
    await signUp(server.api, { email, password: 'old-password' });
    const token = await requestResetLink(email);
    time.advance(60 * MINUTE + 1_000);
    expectAuthError(await confirm(token, 'new-password'), 400, 'code-expired', EXPIRED);
    expect((await signIn(email, 'old-password')).status).toBe(200);
  });

  it('refuses a short new password without using the link up, a made-up token and a malformed email', async () => {
    const email = uniqueEmail('short');
    await signUp(server.api, { email });
    const token = await requestResetLink(email);
    expectAuthError(
      await confirm(token, '12345'),
      400,
      'weak-password',
      'Password is too weak. Please choose a stronger password with at least 6 characters.',
    );
    expect((await confirm(token, '123456')).status).toBe(204);
    expectAuthError(await confirm('made-up-token', 'whatever-password'), 400, 'code-expired', EXPIRED);
    expectAuthError(await resetRequest('not-an-email'), 400, 'invalid-email', 'Please enter a valid email address.');
  });
});
