import { readFile } from 'node:fs/promises';
import path from 'node:path';
import {
  as,
  createFundraiser,
  scanner,
  signUp,
  uniqueEmail,
  WAIT_MS,
  waitForSms,
  withCookieJar,
} from '@qrshirt/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MINUTE, testClock } from './support/accounts';
import { type AdminTestServer, startAdminServer } from './support/admin';
import { confirmDonation } from './support/webhooks';

/*
 * Closing an account over HTTP, on the SQLite files `npm start` uses: the person's sessions and
 * credentials go, their name and email read as null everywhere (the log's own bytes never held
 * them), and their fundraiser keeps its figures and its QR code.
 */
const time = testClock();
let server: AdminTestServer;

beforeAll(async () => {
  server = await startAdminServer({ clock: time.clock });
});
afterAll(() => server?.stop());

const close = (uid: string, session: Parameters<typeof as>[0], body: unknown) =>
  server.api('DELETE', `/api/user/${uid}`, { ...as(session), body });
const signIn = (email: string) =>
  server.api('POST', '/api/auth/signin', {
    body: { email, password: 'correct horse' },
    headers: { 'x-forwarded-for': '192.0.2.90' },
  });

async function revealedEventsOf(stream: string) {
  const answer = await server.api('GET', `/api/admin/events?reveal=true&limit=500&order=oldest`, server.admin);
  expect(answer.status).toBe(200);
  return (answer.body.events as { stream: string; type: string; data: Record<string, unknown> }[]).filter(
    (event) => event.stream === stream,
  );
}

async function storeBytes(): Promise<string> {
  const files = ['events.sqlite', 'read-models.sqlite', 'credentials.sqlite', 'outbox.sqlite'].flatMap((name) => [
    name,
    `${name}-wal`,
  ]);
  const parts = await Promise.all(
    files.map((name) => readFile(path.join(server.dataDir, name)).catch(() => Buffer.alloc(0))),
  );
  return Buffer.concat(parts).toString('latin1');
}

describe('closing an account', () => {
  it('ends every session, erases the name and email everywhere, and keeps the fundraiser and its figures', async () => {
    const email = uniqueEmail('ottoline');
    const browser = withCookieJar(server.api);
    const session = await signUp(browser, { email, displayName: 'Ottoline Fairweather' });
    const uid = session.user.uid;
    const owner = as(session);
    const shirt = await createFundraiser(server.api, owner);
    expect((await server.api('POST', `/api/fundraisers/${shirt.id}/scan`, { headers: scanner(41) })).status).toBe(202);
    await confirmDonation(server.api, { fundraiserId: shirt.id, amount: 20 });
    expect((await revealedEventsOf(`user-${uid}`))[0]?.data).toMatchObject({
      email,
      displayName: 'Ottoline Fairweather',
    });

    // Someone else, or without the password, or with a wrong one: refused, nothing changes.
    const stranger = await signUp(server.api, {});
    expect(await close(uid, stranger, { password: 'correct horse' })).toMatchObject({ status: 403 });
    expect(await close(uid, session, {})).toMatchObject({
      status: 403,
      body: { error: 'Enter your password to close your account' },
    });
    expect(await close(uid, session, { password: 'wrong horse' })).toMatchObject({
      status: 401,
      body: { error: 'Incorrect password. Please try again.', code: 'wrong-password' },
    });
    expect((await server.api('GET', `/api/user/${uid}`, owner)).status).toBe(200);

    expect((await close(uid, session, { password: 'correct horse' })).status).toBe(204);

    // Sessions: the refresh token is dead, and the address signs in to nothing.
    expect((await browser('POST', '/api/auth/refresh')).status).toBe(401);
    expect((await signIn(email)).status).toBe(401);
    // The access token has minutes to live, but the closed account's sessions are over now: it
    // neither reads nor creates anything (another fundraiser, a claim).
    await server.embedded.projectionsCaughtUp(WAIT_MS);
    expect(await server.api('GET', `/api/user/${uid}`, owner)).toMatchObject({
      status: 404,
      body: { error: 'User not found' },
    });
    expect(
      (
        await server.api('POST', '/api/fundraisers', {
          ...owner,
          body: { shirtId: shirt.shirtId, charityId: shirt.charityId },
        })
      ).status,
    ).toBe(404);
    // Closing twice: nobody is there any more.
    expect(await close(uid, session, { password: 'correct horse' })).toMatchObject({ status: 404 });
    expect((await server.api('DELETE', `/api/admin/users/${uid}`, server.admin)).status).toBe(404);

    // Erased wherever the data was: the operator's view of the log shows null, and no file holds it.
    const events = await revealedEventsOf(`user-${uid}`);
    expect(events[0]?.data).toMatchObject({ email: null, displayName: null });
    expect(events.map((event) => event.type)).toContain('UserAccountClosed');
    const bytes = await storeBytes();
    for (const clear of [email, 'Ottoline Fairweather']) expect(bytes, clear).not.toContain(clear);

    // The fundraiser stays, its figures and QR code too, under the anonymous user id (which its
    // public answer never names).
    const kept = await server.api('GET', `/api/fundraisers/${shirt.id}`);
    expect(kept).toMatchObject({ status: 200, body: { id: shirt.id, owned: false, amountRaised: 20 } });
    expect((await revealedEventsOf(`fundraiser-${shirt.id}`))[0]).toMatchObject({
      type: 'FundraiserCreated',
      data: { userId: uid },
    });
    expect((await server.api('GET', `/qr/${shirt.id}`)).status).toBe(200);

    // The address is free again: the person may come back with a new account.
    const again = await signUp(server.api, { email, displayName: 'Ottoline again' });
    expect(again.user.uid).not.toBe(uid);
  });

  it('closes an account without a password only within 5 minutes of a sign-in', async () => {
    const phoneNumber = `+1555${String(process.pid % 1000).padStart(3, '0')}7001`;
    const phoneSignIn = async (count: number) => {
      const started = await server.api('POST', '/api/auth/phone/start', { body: { phoneNumber } });
      expect(started.status).toBe(202);
      const code = /(?<![\d+])(\d{6})(?!\d)/.exec((await waitForSms(server.dataDir, phoneNumber, count)).at(-1)!)![1];
      const confirmed = await server.api('POST', '/api/auth/phone/confirm', {
        body: { verificationId: started.body.verificationId, code },
      });
      expect(confirmed.status).toBe(200);
      return confirmed.body;
    };
    const session = await phoneSignIn(1);
    time.advance(6 * MINUTE);
    expect(await close(session.user.uid, session, {})).toMatchObject({
      status: 403,
      body: { error: 'Sign in again, then close your account within 5 minutes' },
    });
    const again = await phoneSignIn(2);
    expect(again.user.uid).toBe(session.user.uid);
    time.advance(4 * MINUTE);
    expect((await close(session.user.uid, again, {})).status).toBe(204);
    // The number was unlinked with the account: it signs up anew.
    expect((await phoneSignIn(3)).user.uid).not.toBe(session.user.uid);

    const anonymous = await server.api('POST', '/api/auth/anonymous', { headers: { 'x-forwarded-for': '192.0.2.91' } });
    // An anonymous session has no account of its own to close.
    expect((await close(anonymous.body.user.uid, anonymous.body, {})).status).toBe(403);
  });

  it('leaves the waitlist signups made with an address the account never proved', async () => {
    const [shirt] = (await server.api('GET', '/api/shirts')).body;
    const [charity] = (await server.api('GET', '/api/charities')).body;
    const email = uniqueEmail('philippa');
    const joined = await server.api('POST', '/api/waitlist', {
      body: { shirtId: shirt.id, selectedSize: shirt.sizes[0], selectedCharity: charity.id, name: 'Philippa', email },
    });
    expect(joined.status).toBe(201);
    const entryId = joined.body.data.id as string;
    // Someone signs up with the address on the list, never follows the link mailed to it, and
    // cannot make the profile claim another address either.
    const squatter = await signUp(server.api, { email, displayName: 'Squatter' });
    expect(
      (
        await server.api('POST', '/api/user', {
          ...as(squatter),
          body: { uid: squatter.user.uid, email: uniqueEmail('elsewhere') },
        })
      ).status,
    ).toBe(409);
    expect((await close(squatter.user.uid, squatter, { password: 'correct horse' })).status).toBe(204);

    const entries = await server.api('GET', '/api/admin/waitlist/entries?limit=500', server.admin);
    expect(entries.body.entries.find((entry: { id: string }) => entry.id === entryId)).toMatchObject({
      name: 'Philippa',
      email,
      status: 'unconfirmed',
    });
  });

  it('lets an operator erase a person, recorded with who did it, once', async () => {
    const email = uniqueEmail('peregrine');
    const session = await signUp(server.api, { email, displayName: 'Peregrine Voss' });
    const uid = session.user.uid;
    expect((await server.api('DELETE', `/api/admin/users/${uid}`, server.member)).status).toBe(403);
    expect((await server.api('DELETE', `/api/admin/users/${uid}`, server.admin)).status).toBe(204);
    expect((await server.api('DELETE', `/api/admin/users/${uid}`, server.admin)).status).toBe(404);
    expect((await server.api('DELETE', '/api/admin/users/nobody-at-all', server.admin)).status).toBe(404);
    const events = await revealedEventsOf(`user-${uid}`);
    expect(events.at(-1)).toMatchObject({
      type: 'UserAccountClosed',
      data: { userId: uid, by: 'admin', adminId: server.adminUid },
    });
    expect(events[0]?.data).toMatchObject({ email: null, displayName: null });
    expect((await signIn(email)).status).toBe(401);
  });
});
