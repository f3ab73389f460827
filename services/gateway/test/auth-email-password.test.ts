import { authSession, REFRESH_COOKIE } from '@qrshirt/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, newClient, signUp, uniqueEmail, withCookieJar } from '@qrshirt/test-support';
import { expectAuthError } from './support/accounts';
import { startTestServer, type TestServer } from './support/test-server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop());

const INVALID_EMAIL = 'Please enter a valid email address.';
const WEAK_PASSWORD = 'Password is too weak. Please choose a stronger password with at least 6 characters.';
const IN_USE = 'An account with this email already exists. Please try signing in instead.';
const INVALID_CREDENTIAL = 'Invalid email or password. Please check your credentials and try again.';

async function eventsOf(type: string, userId: string) {
  const { eventStore, personalData } = server.embedded;
  const events = await personalData.revealEvents(await eventStore.readAll({ eventTypes: [type] }));
  return events.filter((event) => (event.data as { userId: string }).userId === userId);
}

describe('sign up', () => {
  it('creates the account, answers a session for it and records UserRegistered without the password', async () => {
    const email = uniqueEmail('ada');
    const answer = await server.api('POST', '/api/auth/signup', {
      body: { email: `  ${email} `, password: 'correct horse', displayName: ' Ada Lovelace ' },
    });
    expect(answer.status).toBe(201);
    const session = authSession.parse(answer.body);
    expect(session.user).toEqual({
      uid: session.user.uid,
      anonymous: false,
      email,
      displayName: 'Ada Lovelace',
      photoURL: null,
    });
    expect(session.expiresIn).toBe(900);

    const me = await server.api('GET', `/api/user/${session.user.uid}`, as(session));
    expect(me).toMatchObject({
      status: 200,
      body: { uid: session.user.uid, email, displayName: 'Ada Lovelace', photoURL: null },
    });

    const registered = await eventsOf('UserRegistered', session.user.uid);
    expect(registered.map((event) => event.data)).toEqual([
      expect.objectContaining({ email, displayName: 'Ada Lovelace', method: 'password' }),
    ]);
    const everything = JSON.stringify(await server.embedded.eventStore.readAll());
    expect(everything).not.toContain('correct horse');
    // Names and emails are in the log too, but sealed.
    expect(everything).not.toContain(email);
    expect(everything).not.toContain('Ada Lovelace');
  });

  it('refuses a malformed email, a short password and a taken email, with the spec codes', async () => {
    const taken = uniqueEmail('taken');
    await signUp(server.api, { email: taken });
    const signup = (body: object) =>
      server.api('POST', '/api/auth/signup', { body: { password: 'secret!', displayName: 'X', ...body } });

    expectAuthError(await signup({ email: 'not-an-email' }), 400, 'invalid-email', INVALID_EMAIL);
    expectAuthError(await signup({ email: '' }), 400, 'invalid-email', INVALID_EMAIL);
    expectAuthError(await signup({ email: uniqueEmail(), password: '12345' }), 400, 'weak-password', WEAK_PASSWORD);
    // Five characters, eight UTF-16 units: characters are what count.
    expectAuthError(await signup({ email: uniqueEmail(), password: 'ab🔑🔑🔑' }), 400, 'weak-password', WEAK_PASSWORD);
    expectAuthError(await signup({ email: taken.toUpperCase() }), 409, 'email-already-in-use', IN_USE);
    expect((await signup({ email: 42 })).status).toBe(400);
  });

  it('gives one account to 20 concurrent sign-ups of one email in different cases', async () => {
    const email = uniqueEmail('race');
    const spellings = Array.from({ length: 20 }, (_, i) => (i % 2 ? email.toUpperCase() : email.toLowerCase()));
    const answers = await Promise.all(
      spellings.map((spelling, i) =>
        server.api('POST', '/api/auth/signup', {
          body: { email: spelling, password: `password-${i}`, displayName: `Racer ${i}` },
          headers: newClient(),
        }),
      ),
    );
    const created = answers.filter((answer) => answer.status === 201);
    expect(created).toHaveLength(1);
    for (const answer of answers.filter((answer) => answer.status !== 201)) {
      expectAuthError(answer, 409, 'email-already-in-use', IN_USE);
    }
    const winner = answers.indexOf(created[0]!);
    const { eventStore, personalData } = server.embedded;
    const registered = (
      await personalData.revealEvents(await eventStore.readAll({ eventTypes: ['UserRegistered'] }))
    ).filter((event) => (event.data as { email: string | null }).email?.toLowerCase() === email.toLowerCase());
    expect(registered).toHaveLength(1);

    // The winner's password is the account's, whichever spelling signs in.
    const signIn = await server.api('POST', '/api/auth/signin', {
      body: { email: email.toUpperCase(), password: `password-${winner}` },
    });
    expect(signIn.status).toBe(200);
    expect(signIn.body.user.uid).toBe(created[0]!.body.user.uid);
  });
});

describe('sign in', () => {
  it('signs in with the email in any case and records UserSignedIn', async () => {
    const email = uniqueEmail('grace');
    const browser = withCookieJar(server.api);
    const account = await signUp(browser, { email, password: 'hopper-1906', displayName: 'Grace' });
    const signedUpWith = browser.cookie(REFRESH_COOKIE);
    const answer = await browser('POST', '/api/auth/signin', {
      body: { email: email.toUpperCase(), password: 'hopper-1906' },
    });
    expect(answer.status).toBe(200);
    const session = authSession.parse(answer.body);
    expect(session.user).toEqual({
      uid: account.user.uid,
      anonymous: false,
      email,
      displayName: 'Grace',
      photoURL: null,
    });
    expect(browser.cookie(REFRESH_COOKIE)).not.toBe(signedUpWith);
    expect((await server.api('GET', `/api/user/${session.user.uid}/stats`, as(session))).status).toBe(200);
    expect((await eventsOf('UserSignedIn', account.user.uid)).map((event) => event.data)).toEqual([
      expect.objectContaining({ method: 'password' }),
    ]);
  });

  it('answers a wrong password and an unknown email alike, so nobody learns which emails exist', async () => {
    const email = uniqueEmail('known');
    await signUp(server.api, { email, password: 'right-password' });
    const wrongPassword = await server.api('POST', '/api/auth/signin', { body: { email, password: 'wrong-password' } });
    const unknownEmail = await server.api('POST', '/api/auth/signin', {
      body: { email: uniqueEmail('ghost'), password: 'right-password' },
    });
    expectAuthError(wrongPassword, 401, 'invalid-credential', INVALID_CREDENTIAL);
    expectAuthError(unknownEmail, 401, 'invalid-credential', INVALID_CREDENTIAL);
    expectAuthError(
      await server.api('POST', '/api/auth/signin', { body: { email, password: '' } }),
      401,
      'invalid-credential',
      INVALID_CREDENTIAL,
    );
    expectAuthError(
      await server.api('POST', '/api/auth/signin', { body: { email: 'nope', password: 'x' } }),
      400,
      'invalid-email',
      INVALID_EMAIL,
    );
    expect((await server.api('POST', '/api/auth/signin', { body: {} })).status).toBe(400);
  });
});

describe('anonymous sessions', () => {
  it('issues an anonymous session that the spec headers are accepted with', async () => {
    const answer = await server.api('POST', '/api/auth/anonymous');
    expect(answer.status).toBe(200);
    const session = authSession.parse(answer.body);
    expect(session.user).toEqual({
      uid: session.user.uid,
      anonymous: true,
      email: null,
      displayName: null,
      photoURL: null,
    });
    const shirts = await server.api('GET', '/api/shirts', as(session));
    expect(shirts.status).toBe(200);
    const other = authSession.parse((await server.api('POST', '/api/auth/anonymous')).body);
    expect(other.user.uid).not.toBe(session.user.uid);
  });
});
