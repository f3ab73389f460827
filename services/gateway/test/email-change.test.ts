import { me, user } from '@qrshirt/contracts';
import { createAccounts, createCommandHandler, createLookupKeys, withPersonalData } from '@qrshirt/core';
import {
  as,
  type CapturedMail,
  latestMail,
  mailsTo,
  newClient,
  signUp,
  TEST_LOOKUP_KEY_SECRET,
  tokenIn,
  uniqueEmail,
  waitForMails,
} from '@qrshirt/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testClock } from './support/accounts';
import { outboxSent } from './support/outbox';
import { anonymousToken, startTestServer, type TestServer } from './support/test-server';

/*
 * Changing an account's address (issue 27, item 1): a link mailed to the new address moves the
 * account once followed, over HTTP against the embedded process on SQLite, mails as .eml files.
 */
const time = testClock();
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ clock: time.clock, env: { PUBLIC_BASE_URL: 'https://shirts.example' } });
});
afterAll(() => server.stop());

type Session = Parameters<typeof as>[0];
/** Each request from a client address of its own: the mail limits count per client too. */
const by = (session: Session) => ({ ...as(session), headers: { ...as(session).headers, ...newClient() } });

const askToChange = (session: Session, email: string) =>
  server.api('POST', `/api/user/${session.user.uid}/email`, { ...by(session), body: { email } });
/** Follows a link signed in as `session`, the account that asked for it unless a test says otherwise. */
const follow = (session: Session | null, link: { token: string; email: string }) =>
  server.api('POST', '/api/auth/verify-email', { ...(session && by(session)), body: link });
const verify = (session: Session, token: string) =>
  server.api('POST', '/api/auth/verify-email', { ...by(session), body: { token } });
const signIn = (email: string) =>
  server.api('POST', '/api/auth/signin', { body: { email, password: 'correct horse' }, headers: newClient() });
const profileOf = async (session: Session) =>
  user.parse((await server.api('GET', `/api/user/${session.user.uid}`, by(session))).body);
const meOf = async (session: Session) => me.parse((await server.api('GET', '/api/me', by(session))).body);

/** The change link of the mail: its token and the new address, from its fragment. */
function changeLink(mail: CapturedMail): { token: string; email: string } {
  const fragment = /https:\/\/shirts\.example\/verify-email#(\S+)/.exec(mail.text)?.[1];
  const params = new URLSearchParams(fragment);
  const [token, email] = [params.get('token'), params.get('email')];
  if (!token || !email) throw new Error(`no change link in: ${mail.text}`);
  return { token, email };
}

/** Asks for a change to `email` and answers the link mailed there. */
async function linkFor(session: Session, email: string) {
  const before = (await mailsTo(server.dataDir, email)).length;
  expect((await askToChange(session, email)).status).toBe(202);
  return changeLink(await latestMail(server.dataDir, email, before + 1));
}

describe('changing one’s address', () => {
  it('moves the account once the link mailed to the new address is followed; until then nothing changes', async () => {
    const [old, fresh] = [uniqueEmail('ada'), uniqueEmail('countess')];
    const ada = await signUp(server.api, { email: old, displayName: 'Ada' });

    expect((await askToChange(ada, fresh)).status).toBe(202);
    const mail = await latestMail(server.dataDir, fresh);
    expect(mail.subject).toBe('Confirm your new email address');
    expect(mail.text).toContain(`https://shirts.example/verify-email#token=`);
    const link = changeLink(mail);
    expect(link.email).toBe(fresh);

    // Nothing is reserved or changed before the link is followed.
    expect((await profileOf(ada)).email).toBe(old);
    expect((await signIn(fresh)).status).toBe(401);

    const moved = await follow(ada, link);
    expect({ status: moved.status, body: moved.body }).toEqual({
      status: 200,
      body: { email: fresh, emailVerified: true, changed: true },
    });
    expect((await profileOf(ada)).email).toBe(fresh);
    expect(await meOf(ada)).toMatchObject({ emailVerified: true });
    expect((await signIn(fresh)).body.user).toMatchObject({ uid: ada.user.uid, email: fresh });
    expect((await signIn(old)).status).toBe(401);
    // The old address is free for a new account.
    const newcomer = await signUp(server.api, { email: old, displayName: 'Newcomer' });
    expect(newcomer.user.uid).not.toBe(ada.user.uid);
    // The link works once.
    expect((await follow(ada, link)).status).toBe(400);
  });

  it('names the asking account in the mail, and acts only for its session: the link stays until then', async () => {
    const [old, fresh] = [uniqueEmail('hal'), uniqueEmail('hal-new')];
    const hal = await signUp(server.api, { email: old, displayName: 'Hal' });
    const stranger = await signUp(server.api, { displayName: 'Stranger' });
    expect((await askToChange(hal, fresh)).status).toBe(202);
    const mail = await latestMail(server.dataDir, fresh);
    expect(mail.text).toContain('Account Hal asked to use this address on QR Shirts.');
    const link = changeLink(mail);

    const preview = (session: Session | null) =>
      server.api('POST', '/api/auth/verify-email/preview', { ...(session && by(session)), body: link });
    expect((await preview(null)).body).toEqual({ email: fresh, displayName: 'Hal', change: true, yours: false });
    expect((await preview(stranger)).body).toMatchObject({ yours: false });
    expect((await preview(hal)).body).toMatchObject({ yours: true });

    const signedOut = await follow(null, link);
    expect({ status: signedOut.status, body: signedOut.body }).toEqual({
      status: 401,
      body: { error: 'sign-in-required' },
    });
    const anonymous = await server.api('POST', '/api/auth/verify-email', {
      token: anonymousToken('anon-follower'),
      headers: { 'x-anonymous': 'true' },
      body: link,
    });
    expect(anonymous).toMatchObject({ status: 401, body: { error: 'sign-in-required' } });
    const another = await follow(stranger, link);
    expect(another.status).toBe(403);
    expect(another.body.error).toEqual(expect.any(String));
    expect((await profileOf(hal)).email).toBe(old);
    expect((await profileOf(stranger)).email).toBe(stranger.user.email);
    expect((await signIn(fresh)).status).toBe(401);

    expect((await follow(hal, link)).body).toEqual({ email: fresh, emailVerified: true, changed: true });
  });

  it('ends every link mailed before: verification, password reset and earlier change links', async () => {
    const [old, abandoned, fresh] = [uniqueEmail('bea'), uniqueEmail('bea-abandoned'), uniqueEmail('bea-new')];
    const bea = await signUp(server.api, { email: old });
    const verification = tokenIn(await latestMail(server.dataDir, old), 'verify-email');
    expect(
      (await server.api('POST', '/api/auth/password-reset', { body: { email: old }, headers: newClient() })).status,
    ).toBe(202);
    const reset = tokenIn(
      (await waitForMails(server.dataDir, old, 2)).find((mail) => mail.text.includes('#reset='))!,
      'signin',
      'reset',
    );
    const earlier = await linkFor(bea, abandoned);

    expect((await follow(bea, await linkFor(bea, fresh))).status).toBe(200);

    expect(await verify(bea, verification)).toMatchObject({ status: 400 });
    const resetAnswer = await server.api('POST', '/api/auth/password-reset/confirm', {
      body: { token: reset, password: 'a-new-password' },
    });
    expect(resetAnswer).toMatchObject({ status: 400, body: { code: 'code-expired' } });
    expect((await signIn(fresh)).status).toBe(200);
    expect(await follow(bea, earlier)).toMatchObject({ status: 400 });
    expect((await profileOf(bea)).email).toBe(fresh);
    expect((await signIn(abandoned)).status).toBe(401);
  });

  it('refuses a link whose address was edited, and uses it up', async () => {
    const cleo = await signUp(server.api, {});
    const link = await linkFor(cleo, uniqueEmail('cleo-new'));
    const edited = await follow(cleo, { ...link, email: uniqueEmail('someone-else') });
    expect({ status: edited.status, body: edited.body }).toEqual({
      status: 409,
      body: {
        error: 'This link does not match your account’s email address any more. Ask for a new one from Edit Profile.',
      },
    });
    expect((await follow(cleo, link)).status).toBe(400);
    expect((await profileOf(cleo)).email).toBe(cleo.user.email);
  });

  it('refuses an address another account holds, when asked and when the link is followed, changing nothing', async () => {
    const dora = await signUp(server.api, {});
    const holder = await signUp(server.api, {});
    const taken = await askToChange(dora, holder.user.email!);
    expect({ status: taken.status, body: taken.body }).toEqual({
      status: 409,
      body: { error: 'Another account uses this email address' },
    });
    // The holder got their sign-up mail, and nothing more.
    await outboxSent(server.dataDir, { to: holder.user.email! });
    expect(await mailsTo(server.dataDir, holder.user.email!)).toHaveLength(1);

    // Free when asked, taken by someone signing up before the link is followed.
    const contested = uniqueEmail('contested');
    const link = await linkFor(dora, contested);
    const quicker = await signUp(server.api, { email: contested });
    expect(await follow(dora, link)).toMatchObject({
      status: 409,
      body: { error: 'Another account uses this email address' },
    });
    expect((await profileOf(dora)).email).toBe(dora.user.email);
    expect((await signIn(dora.user.email!)).body.user?.uid).toBe(dora.user.uid);
    expect((await signIn(contested)).body.user?.uid).toBe(quicker.user.uid);
  });

  it('refuses the address the account has already, other people’s accounts, anonymous sessions and non-addresses', async () => {
    const eve = await signUp(server.api, {});
    const other = await signUp(server.api, {});
    expect(await askToChange(eve, eve.user.email!.toUpperCase())).toMatchObject({
      status: 409,
      body: { error: 'This is your email address already: ask for a new verification link to confirm it' },
    });
    const someoneElses = await server.api('POST', `/api/user/${other.user.uid}/email`, {
      ...by(eve),
      body: { email: uniqueEmail('hijack') },
    });
    expect(someoneElses).toMatchObject({ status: 403, body: { error: 'You can only change your own email address' } });
    const anonymous = await server.api('POST', '/api/user/anon-1/email', {
      token: anonymousToken('anon-1'),
      headers: { 'x-anonymous': 'true' },
      body: { email: uniqueEmail('anon') },
    });
    expect(anonymous.status).toBe(403);
    expect(await askToChange(eve, 'not an address')).toMatchObject({
      status: 400,
      body: { error: 'Please enter a valid email address.', code: 'invalid-email' },
    });
    expect(
      (await server.api('POST', `/api/user/${eve.user.uid}/email`, { body: { email: 'x@example.com' } })).status,
    ).toBe(401);
  });

  it('sends at most 3 change links an hour for one account, from however many clients', async () => {
    const fay = await signUp(server.api, {});
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 4; attempt++) {
      statuses.push((await askToChange(fay, uniqueEmail(`fay-${attempt}`))).status);
    }
    expect(statuses).toEqual([202, 202, 202, 429]);
  });

  it('finishes a move cut short (a crash between its steps) when the link is followed again', async () => {
    const [old, fresh] = [uniqueEmail('gus'), uniqueEmail('gus-new')];
    const gus = await signUp(server.api, { email: old });
    expect((await verify(gus, tokenIn(await latestMail(server.dataDir, old), 'verify-email'))).status).toBe(200);
    const link = await linkFor(gus, fresh);

    // The process did the first steps of following the link (the new address reserved and proved,
    // the profile moved), then stopped before freeing the old address and spending the link.
    const commands = createCommandHandler({
      eventStore: withPersonalData(server.embedded.eventStore, server.embedded.personalData),
    });
    const accounts = createAccounts({
      commands,
      clock: time.clock,
      lookupKeys: createLookupKeys(TEST_LOOKUP_KEY_SECRET),
    });
    expect(await accounts.reserveEmail(fresh, gus.user.uid)).toBe(gus.user.uid);
    await accounts.verifyEmail(fresh, gus.user.uid, 'link');
    await accounts.changeEmail(gus.user.uid, fresh);

    // Nothing is wrong meanwhile: the account has the address it proved, and nobody can take the old one.
    expect((await profileOf(gus)).email).toBe(fresh);
    expect(await meOf(gus)).toMatchObject({ emailVerified: true });
    const early = await server.api('POST', '/api/auth/signup', {
      body: { email: old, password: 'correct horse', displayName: 'Early' },
      headers: newClient(),
    });
    expect(early.status).toBe(409);

    expect((await follow(gus, link)).body).toEqual({ email: fresh, emailVerified: true, changed: true });
    expect((await signUp(server.api, { email: old })).user.uid).not.toBe(gus.user.uid);
    expect((await signIn(fresh)).body.user?.uid).toBe(gus.user.uid);
    expect((await follow(gus, link)).status).toBe(400);
  });
});
