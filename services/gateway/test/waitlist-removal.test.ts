import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { adminWaitlistEntriesPage, type AdminWaitlistEntry, fulfilledWaitlistEntry } from '@qrshirt/contracts';
import {
  as,
  type LocalSmtp,
  type ReceivedMail,
  type RequestOptions,
  signUp,
  startSmtpServer,
  uniqueEmail,
  WAIT_MS,
} from '@qrshirt/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support/test-server';

/*
 * A person put on the waitlist (by themselves or by someone who typed their address) follows the
 * removal link of any waitlist mail: the entry leaves the list and their name and email are erased
 * everywhere, over HTTP with mail delivered by SMTP to a real server on loopback.
 */

const ADMIN_EMAIL = 'removal-ops@example.org';
const BASE = 'https://shirts.example';
let smtp: LocalSmtp;
let server: TestServer;
let admin: RequestOptions;
let shirt: { id: string; name: string; sizes: string[] };
let charity: { id: string; name: string };

async function mailTo(address: string, subject: RegExp): Promise<ReceivedMail> {
  const matching = (messages: ReceivedMail[]) =>
    messages.filter(
      (message) => message.to.toLowerCase().includes(address.toLowerCase()) && subject.test(message.subject),
    );
  return matching(await smtp.waitFor((messages) => matching(messages).length > 0)).at(-1)!;
}

const linkToken = (mail: ReceivedMail, page: string) => {
  const token = new RegExp(`${BASE}/${page}#token=([A-Za-z0-9_.-]+)`).exec(mail.text)?.[1];
  if (!token) throw new Error(`no ${page} link in: ${mail.text}`);
  return token;
};

const confirm = (token: unknown) => server.api('POST', '/api/waitlist/confirm', { body: { token } });
const remove = (token: unknown) => server.api('POST', '/api/waitlist/remove', { body: { token } });
/** The admin's list and fulfilment read the waitlist-entries read model: let it see what was just done. */
const projected = () => server.embedded.projectionsCaughtUp(WAIT_MS);
const fulfil = async (entryId: string) => {
  await projected();
  return server.api('POST', `/api/admin/waitlist/entries/${entryId}/fulfil`, { ...admin, body: undefined });
};

async function join(name: string, email: string): Promise<string> {
  const answer = await server.api('POST', '/api/waitlist', {
    body: { shirtId: shirt.id, selectedSize: shirt.sizes[0], selectedCharity: charity.id, name, email },
  });
  expect(answer.status).toBe(201);
  return answer.body.data.id as string;
}

async function entry(entryId: string): Promise<AdminWaitlistEntry> {
  await projected();
  const answer = await server.api('GET', '/api/admin/waitlist/entries?limit=500', admin);
  const found = adminWaitlistEntriesPage.parse(answer.body).entries.find((listed) => listed.id === entryId);
  if (!found) throw new Error(`entry ${entryId} is not listed`);
  return found;
}

async function signedUpAndVerified(email: string) {
  const session = await signUp(server.api, { email });
  const token = linkToken(await mailTo(email, /Confirm your email/), 'verify-email');
  expect((await server.api('POST', '/api/auth/verify-email', { ...as(session), body: { token } })).status).toBe(200);
  return session;
}

beforeAll(async () => {
  smtp = await startSmtpServer();
  server = await startTestServer({
    env: { SMTP_URL: smtp.url, PUBLIC_BASE_URL: `${BASE}/`, ADMIN_EMAILS: ADMIN_EMAIL },
  });
  admin = as(await signedUpAndVerified(ADMIN_EMAIL));
  [shirt] = (await server.api('GET', '/api/shirts')).body;
  [charity] = (await server.api('GET', '/api/charities')).body;
});
afterAll(async () => {
  await server?.stop();
  await smtp?.stop();
});

describe('removing oneself from the waitlist', () => {
  it('takes the entry off the list with any mail’s removal link, once, and erases its name and email everywhere', async () => {
    const name = 'Rowan Removable';
    const email = uniqueEmail('rowan');
    const entryId = await join(name, email);

    // The confirmation mail carries both links.
    const joinMail = await mailTo(email, /Confirm your place/);
    const confirmToken = linkToken(joinMail, 'waitlist/confirm');
    const joinRemoveToken = linkToken(joinMail, 'waitlist/remove');
    expect(joinMail.html).toContain(`${BASE}/waitlist/remove#token=`);
    expect(await confirm(confirmToken)).toMatchObject({ status: 200, body: { confirmed: true } });
    expect(await confirm(confirmToken)).toMatchObject({
      status: 409,
      body: { error: 'Your place is confirmed already: a confirmation link works once' },
    });

    // Fulfilled: the claim mail carries a removal link of its own, and the fulfilment a copy of the name and email.
    const fulfilled = await fulfil(entryId);
    expect(fulfilled.status).toBe(201);
    const { fundraiser: made } = fulfilledWaitlistEntry.parse(fulfilled.body);
    const claimMail = await mailTo(email, /is ready/);
    const claimToken = linkToken(claimMail, 'claim');
    const claimRemoveToken = linkToken(claimMail, 'waitlist/remove');

    // Not a removal link of ours: a forged one, the confirmation link, nothing at all.
    const invalid = {
      status: 404,
      body: { error: 'This removal link is not valid: open the link from the email exactly as it came' },
    };
    for (const forged of [
      `${claimRemoveToken.slice(0, -4)}AAAA`,
      `${joinRemoveToken.slice(0, -4)}AAAA`,
      confirmToken,
      'x',
    ]) {
      expect(await remove(forged), forged).toMatchObject(invalid);
    }
    expect(await remove('')).toMatchObject({ status: 400, body: { error: expect.stringMatching(/token/) } });

    expect(await remove(claimRemoveToken)).toMatchObject({ status: 200, body: { removed: true } });
    // Once: the same link again, or the one of the other mail, finds nothing left to remove.
    const removedAlready = { status: 404, body: { error: 'This waitlist entry has been removed already' } };
    expect(await remove(claimRemoveToken)).toMatchObject(removedAlready);
    expect(await remove(joinRemoveToken)).toMatchObject(removedAlready);

    // Nothing more is done for it: no fulfilment, no new claim link, the mailed one stops working.
    expect(await entry(entryId)).toMatchObject({ status: 'removed', name: null, email: null, fundraiserId: made.id });
    const erased = "This waitlist entry's person removed it: their name and email are erased";
    expect(await fulfil(entryId)).toMatchObject({ status: 410, body: { error: erased } });
    expect(
      await server.api('POST', `/api/admin/waitlist/entries/${entryId}/claim-link`, { ...admin, body: undefined }),
    ).toMatchObject({ status: 410, body: { error: erased } });
    const someoneElse = await signedUpAndVerified(uniqueEmail('finder'));
    expect(await server.api('POST', '/api/claims', { ...as(someoneElse), body: { token: claimToken } })).toMatchObject({
      status: 410,
      body: { error: 'This claim link no longer works: its waitlist entry was removed' },
    });
    expect(await confirm(confirmToken)).toMatchObject({
      status: 410,
      body: { error: 'This waitlist entry has been removed, and its name and email erased' },
    });

    // Nowhere to be read: the admin list, its CSV, the events even with reveal=true, the database's bytes.
    const csv = await (
      await fetch(`${server.url}/api/admin/waitlist/entries.csv`, {
        headers: { authorization: `Bearer ${admin.token}` },
      })
    ).text();
    expect(csv.split('\r\n').find((row) => row.endsWith(`,removed,${made.id}`))).toMatch(
      /^[^,]+,\(erased\),\(erased\),/,
    );
    const list = JSON.stringify((await server.api('GET', '/api/admin/waitlist/entries?limit=500', admin)).body);
    const events = await server.api('GET', '/api/admin/events?reveal=true&order=oldest&limit=500', admin);
    expect(events.status).toBe(200);
    const ofEntry = (events.body.events as { type: string; data: Record<string, unknown> }[]).filter(
      (event) => event.data.entryId === entryId,
    );
    expect(ofEntry.map((event) => event.type)).toEqual([
      'AddressRecordNoted',
      'WaitlistJoined',
      'WaitlistEntryConfirmed',
      'WaitlistEntryFulfilled',
      'FundraiserCreated',
      'WaitlistEntryRemoved',
    ]);
    for (const event of ofEntry.filter(({ type }) => type === 'WaitlistJoined' || type === 'WaitlistEntryFulfilled')) {
      expect(event.data).toMatchObject({ name: null, email: null });
    }
    const files = await Promise.all(
      ['events.sqlite', 'read-models.sqlite', 'credentials.sqlite', 'outbox.sqlite']
        .flatMap((file) => [file, `${file}-wal`])
        .map((file) => readFile(path.join(server.dataDir, file)).catch(() => Buffer.alloc(0))),
    );
    for (const text of [csv, list, JSON.stringify(events.body), ...files.map((bytes) => bytes.toString('latin1'))]) {
      expect(text).not.toContain(name);
      expect(text).not.toContain(email);
    }
  });

  it('erases a claimed entry’s name and email too, and the shirt stays its owner’s', async () => {
    const email = uniqueEmail('owner');
    const entryId = await join('Olive Owner', email);
    expect((await confirm(linkToken(await mailTo(email, /Confirm your place/), 'waitlist/confirm'))).status).toBe(200);
    const { fundraiser: made } = fulfilledWaitlistEntry.parse((await fulfil(entryId)).body);
    const claimMail = await mailTo(email, /is ready/);
    const owner = await signedUpAndVerified(email);
    const claimed = await server.api('POST', '/api/claims', {
      ...as(owner),
      body: { token: linkToken(claimMail, 'claim') },
    });
    expect(claimed.status).toBe(201);

    expect((await remove(linkToken(claimMail, 'waitlist/remove'))).status).toBe(200);
    expect(await entry(entryId)).toMatchObject({ status: 'removed', name: null, email: null, fundraiserId: made.id });
    expect((await server.api('GET', `/api/fundraisers/${made.id}`, as(owner))).body).toMatchObject({ owned: true });
  });
});
