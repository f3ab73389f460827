import { outboxAnswer } from '@qrshirt/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MINUTE, expectAuthError, signUp, testClock, uniqueEmail } from './support/accounts';
import { startTestServer, type TestServer } from './support/test-server';

const time = testClock();
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ clock: time.clock, env: { PUBLIC_BASE_URL: 'https://shirts.example/' } });
});
afterAll(() => server.stop());

const EXPIRED = 'Verification code has expired. Please request a new code.';

const emailsTo = async (address: string) =>
  outboxAnswer
    .parse((await server.api('GET', '/api/dev/outbox')).body)
    .messages.filter((message) => message.channel === 'email' && message.to === address);

/** Asks for a reset link and reads it from the development outbox, as the user reads their mail. */
async function requestResetLink(email: string): Promise<string> {
  const before = (await emailsTo(email)).length;
  expect((await server.api('POST', '/api/auth/password-reset', { body: { email } })).status).toBe(202);
  await expect.poll(async () => (await emailsTo(email)).length).toBe(before + 1);
  const text = (await emailsTo(email)).at(-1)!.text;
  const link = /https:\/\/shirts\.example\/signin#reset=([A-Za-z0-9_-]+)/.exec(text);
  expect(link, text).not.toBeNull();
  return link![1]!;
}

const confirm = (token: string, password: string) =>
  server.api('POST', '/api/auth/password-reset/confirm', { body: { token, password } });
const signIn = (email: string, password: string) => server.api('POST', '/api/auth/signin', { body: { email, password } });

describe('password reset', () => {
  it('emails a link whose token sets a new password once and ends the old sessions', async () => {
    const email = uniqueEmail('forgetful');
    const before = await signUp(server.api, { email, password: 'old-password' });
    const token = await requestResetLink(email.toLowerCase());

    expect(await confirm(token, 'new-password')).toMatchObject({ status: 204 });
    expect((await signIn(email, 'new-password')).status).toBe(200);
    expect((await signIn(email, 'old-password')).status).toBe(401);
    expect((await server.api('POST', '/api/auth/refresh', { body: { refreshToken: before.refreshToken } })).status).toBe(401);
    expectAuthError(await confirm(token, 'another-password'), 400, 'code-expired', EXPIRED);
  });

  it('answers the same for an address without an account, and sends it nothing', async () => {
    const nobody = uniqueEmail('nobody').toLowerCase();
    const somebody = uniqueEmail('somebody');
    await signUp(server.api, { email: somebody });
    const forNobody = await server.api('POST', '/api/auth/password-reset', { body: { email: nobody } });
    const forSomebody = await server.api('POST', '/api/auth/password-reset', { body: { email: somebody } });
    expect({ status: forNobody.status, body: forNobody.body }).toEqual({ status: forSomebody.status, body: forSomebody.body });
    expect(forNobody.status).toBe(202);
    await expect.poll(async () => (await emailsTo(somebody)).length).toBe(1);
    expect(await emailsTo(nobody)).toEqual([]);
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
    expectAuthError(
      await server.api('POST', '/api/auth/password-reset', { body: { email: 'not-an-email' } }),
      400,
      'invalid-email',
      'Please enter a valid email address.',
    );
  });
});
