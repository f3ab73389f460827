import { personalDataExport } from '@qrshirt/contracts';
import {
  as,
  type CapturedMail,
  countingLogReads,
  createFundraiser,
  latestMail,
  scanner,
  signUp,
  uniqueEmail,
  WAIT_MS,
  waitForSms,
} from '@qrshirt/test-support';
import { openEventStore } from '@qrshirt/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testClock } from './support/accounts';
import { type AdminTestServer, startAdminServer } from './support/admin';
import { confirmDonation } from './support/webhooks';

/*
 * A person downloads their data over HTTP, on the SQLite files `npm start` uses: their profile,
 * how they sign in, their fundraisers and figures, their waitlist entries and their events, and
 * nothing about anyone else, though others scanned and donated to their shirt, joined the same
 * waitlist, and one even signed up with an address that is on it.
 */
const time = testClock();
let server: AdminTestServer;
let shirt: { id: string; sizes: string[] };
let charity: { id: string };
/** What the gateway read of the whole log: an export reads the person's own streams only. */
let logReads: string[];

beforeAll(async () => {
  server = await startAdminServer({
    clock: time.clock,
    eventStore: (config) => {
      const counted = countingLogReads(openEventStore(config));
      logReads = counted.reads;
      return counted.store;
    },
  });
  [shirt] = (await server.api('GET', '/api/shirts')).body;
  [charity] = (await server.api('GET', '/api/charities')).body;
});
afterAll(() => server?.stop());

type Session = Parameters<typeof as>[0];

const exportOf = (uid: string, session?: Session) =>
  server.api('GET', `/api/user/${uid}/export`, session ? as(session) : {});

/** The token of a link the mail carries; waitlist tokens have dots in them. */
function linkToken(mail: CapturedMail, page: string): string {
  const token = new RegExp(`/${page}#token=([A-Za-z0-9_.-]+)`).exec(mail.text)?.[1];
  if (!token) throw new Error(`no /${page} link in: ${mail.text}`);
  return token;
}

async function verifiedMember(email: string, displayName: string) {
  const session = await signUp(server.api, { email, displayName });
  const verified = await server.api('POST', '/api/auth/verify-email', {
    ...as(session),
    body: { token: linkToken(await latestMail(server.dataDir, email), 'verify-email') },
  });
  expect(verified.status).toBe(200);
  return session;
}

/** Joins the waitlist as `name` with `email`; the nth mail to the address confirms it, when asked to. */
async function join(name: string, email: string, size: string, confirmWithMail?: number): Promise<string> {
  const answer = await server.api('POST', '/api/waitlist', {
    body: { shirtId: shirt.id, selectedSize: size, selectedCharity: charity.id, name, email },
  });
  expect(answer.status).toBe(201);
  if (confirmWithMail !== undefined) {
    const token = linkToken(await latestMail(server.dataDir, email, confirmWithMail), 'waitlist/confirm');
    expect((await server.api('POST', '/api/waitlist/confirm', { body: { token } })).status).toBe(200);
  }
  return answer.body.data.id as string;
}

async function phoneSignIn(phoneNumber: string) {
  const started = await server.api('POST', '/api/auth/phone/start', { body: { phoneNumber } });
  expect(started.status).toBe(202);
  const code = /(?<![\d+])(\d{6})(?!\d)/.exec((await waitForSms(server.dataDir, phoneNumber)).at(-1)!)![1];
  const confirmed = await server.api('POST', '/api/auth/phone/confirm', {
    body: { verificationId: started.body.verificationId, code },
  });
  expect(confirmed.status).toBe(200);
  return confirmed.body;
}

describe('downloading one’s data', () => {
  it('holds the profile, sign-in methods, fundraisers, waitlist entries and events, and nobody else’s', async () => {
    const email = uniqueEmail('marisol');
    const person = await verifiedMember(email, 'Marisol Quennell');
    const uid = person.user.uid;
    const own = await createFundraiser(server.api, as(person), { name: 'Marisol runs' });
    // Strangers scan and donate: the figures count them, the export names none of them.
    expect((await server.api('POST', `/api/fundraisers/${own.id}/scan`, { headers: scanner(71) })).status).toBe(202);
    const donationId = await confirmDonation(server.api, { fundraiserId: own.id, amount: 25 });

    // Two entries with the address, one in another case: one confirmed, fulfilled and claimed, one never confirmed.
    const [firstSize, secondSize] = [shirt.sizes[0]!, shirt.sizes[1] ?? shirt.sizes[0]!];
    const claimedEntry = await join('Marisol Quennell', email.toUpperCase(), firstSize, 2);
    // Fulfilment finds the entry in the waitlist-entries read model.
    await server.embedded.projectionsCaughtUp(WAIT_MS);
    const fulfilled = await server.api('POST', `/api/admin/waitlist/entries/${claimedEntry}/fulfil`, server.admin);
    expect(fulfilled.status).toBe(201);
    const made = fulfilled.body.fundraiser.id as string;
    const claimToken = linkToken(await latestMail(server.dataDir, email, 3), 'claim');
    expect((await server.api('POST', '/api/claims', { ...as(person), body: { token: claimToken } })).status).toBe(201);
    const unconfirmedEntry = await join(
      'M. Quennell',
      email,
      secondSize === firstSize ? shirt.sizes.at(-1)! : secondSize,
    );

    // Someone else with an account, a fundraiser, an entry and a phone account; a stranger with only an entry.
    const otherEmail = uniqueEmail('bartholomew');
    const other = await verifiedMember(otherEmail, 'Bartholomew Strand');
    const othersFundraiser = await createFundraiser(server.api, as(other), { name: 'Bartholomew walks' });
    const othersEntry = await join('Bartholomew Strand', otherEmail, firstSize, 2);
    const phoneNumber = `+1555${String(process.pid % 1000).padStart(3, '0')}8101`;
    const phoneUser = await phoneSignIn(phoneNumber);
    const strangerEmail = uniqueEmail('cosima');
    const strangersEntry = await join('Cosima Threlkeld', strangerEmail, firstSize);
    await server.embedded.projectionsCaughtUp(WAIT_MS);

    logReads.length = 0;
    const answer = await exportOf(uid, person);
    expect(answer.status).toBe(200);
    expect(logReads).toEqual([]);
    expect(answer.headers.get('content-disposition')).toBe(`attachment; filename="qrshirts-data-${uid}.json"`);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    const data = personalDataExport.parse(answer.body);

    expect(data.profile).toMatchObject({ uid, displayName: 'Marisol Quennell', email, emailVerified: true });
    expect(data.signInMethods).toEqual([{ kind: 'password', email }]);

    const stats = (await server.api('GET', `/api/user/${uid}/stats`, as(person))).body;
    expect(data.fundraisers).toEqual(stats);
    expect(data.fundraisers.fundraiserStats.map(({ id }) => id).sort()).toEqual([own.id, made].sort());
    expect(data.fundraisers).toMatchObject({ totalImpact: 25, totalScans: 1, shirtsOwned: 2 });

    expect(data.waitlistEntries.map(({ id }) => id).sort()).toEqual([claimedEntry, unconfirmedEntry].sort());
    const claimed = data.waitlistEntries.find(({ id }) => id === claimedEntry)!;
    expect(claimed).toMatchObject({
      name: 'Marisol Quennell',
      email: email.toUpperCase(),
      status: 'claimed',
      fundraiserId: made,
      removedAt: null,
    });
    for (const date of [claimed.joinedAt, claimed.confirmedAt, claimed.fulfilledAt, claimed.claimedAt])
      expect(date).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(data.waitlistEntries.find(({ id }) => id === unconfirmedEntry)).toMatchObject({
      name: 'M. Quennell',
      status: 'unconfirmed',
      confirmedAt: null,
      fundraiserId: null,
    });

    const types = (stream: string) => data.events.filter((event) => event.stream === stream).map(({ type }) => type);
    expect(types(`user-${uid}`)).toContain('UserRegistered');
    expect(data.events.find(({ type }) => type === 'UserRegistered')?.data).toMatchObject({
      email,
      displayName: 'Marisol Quennell',
    });
    expect(types(`fundraiser-${own.id}`)).toContain('FundraiserCreated');
    expect(types(`fundraiser-${made}`)).toEqual(expect.arrayContaining(['FundraiserCreated', 'FundraiserClaimed']));
    expect(types(`fulfilment-${claimedEntry}`)).toEqual(['WaitlistEntryFulfilled']);
    const joined = data.events.filter(({ type }) => type === 'WaitlistJoined').map(({ data: event }) => event.entryId);
    expect(joined.sort()).toEqual([claimedEntry, unconfirmedEntry].sort());
    expect(data.events.map(({ type }) => type)).toContain('EmailVerified');

    // Nothing of anyone else: not their ids, names, addresses or numbers, nor the secrets of links.
    const text = JSON.stringify(answer.body).toLowerCase();
    for (const foreign of [
      other.user.uid,
      'Bartholomew',
      otherEmail,
      othersFundraiser.id,
      othersEntry,
      phoneUser.user.uid,
      phoneNumber,
      strangersEntry,
      'Cosima',
      strangerEmail,
      server.adminUid,
      'Olga Ops',
      'ops@example.org',
      donationId,
      'tokenhash',
      'password":',
    ]) {
      expect(text, foreign).not.toContain(foreign.toLowerCase());
    }

    // The phone account's methods: the number is kept only as a keyed hash, so it is not in there.
    const phoneExport = await exportOf(phoneUser.user.uid, phoneUser);
    expect(phoneExport.status).toBe(200);
    expect(phoneExport.body.signInMethods).toEqual([{ kind: 'phone', firstUsedAt: expect.any(String) }]);
    expect(JSON.stringify(phoneExport.body)).not.toContain(phoneNumber.slice(2));
  });

  it('holds the entry whose shirt the person claimed before moving to another address, and no other entry of the old one', async () => {
    const oldAddress = uniqueEmail('ottoline');
    const person = await verifiedMember(oldAddress, 'Ottoline Marsh');
    const [size] = shirt.sizes;
    const claimedEntry = await join('Ottoline Marsh', oldAddress, size!, 2);
    const otherEntry = await join('Ottoline Marsh', oldAddress, shirt.sizes.at(-1)!);
    await server.embedded.projectionsCaughtUp(WAIT_MS);
    const fulfilled = await server.api('POST', `/api/admin/waitlist/entries/${claimedEntry}/fulfil`, server.admin);
    expect(fulfilled.status).toBe(201);
    const claimToken = linkToken(await latestMail(server.dataDir, oldAddress, 4), 'claim');
    expect((await server.api('POST', '/api/claims', { ...as(person), body: { token: claimToken } })).status).toBe(201);
    // The account moves: the link mailed to the new address, followed signed in.
    const newAddress = uniqueEmail('ottoline.moved');
    const asked = await server.api('POST', `/api/user/${person.user.uid}/email`, {
      ...as(person),
      body: { email: newAddress },
    });
    expect(asked.status).toBe(202);
    const moved = await server.api('POST', '/api/auth/verify-email', {
      ...as(person),
      body: { token: linkToken(await latestMail(server.dataDir, newAddress), 'verify-email'), email: newAddress },
    });
    expect(moved.status).toBe(200);

    logReads.length = 0;
    const answer = await exportOf(person.user.uid, person);
    expect(answer.status).toBe(200);
    expect(logReads).toEqual([]);
    expect(answer.body.profile).toMatchObject({ email: newAddress, emailVerified: true });
    expect(answer.body.waitlistEntries).toEqual([
      expect.objectContaining({ id: claimedEntry, email: oldAddress, status: 'claimed', size }),
    ]);
    expect(JSON.stringify(answer.body)).not.toContain(otherEntry);
  });

  it('gives nobody a waitlist entry made with an address they have not proved is theirs', async () => {
    const strangerEmail = uniqueEmail('philippa');
    const entry = await join('Philippa Yarrow', strangerEmail, shirt.sizes[0]!);
    // Someone signs up with that address, and never follows the link mailed to it.
    const squatter = await signUp(server.api, { email: strangerEmail, displayName: 'Squatter' });
    const answer = await exportOf(squatter.user.uid, squatter);
    expect(answer.status).toBe(200);
    expect(answer.body.profile).toMatchObject({ email: strangerEmail, emailVerified: false });
    expect(answer.body.waitlistEntries).toEqual([]);
    const text = JSON.stringify(answer.body);
    for (const foreign of [entry, 'Philippa']) expect(text, foreign).not.toContain(foreign);
  });

  it('is for the account’s own person only, and answers 404 once the account is closed', async () => {
    const email = uniqueEmail('tobias');
    const person = await verifiedMember(email, 'Tobias Wren');
    const uid = person.user.uid;
    const someoneElse = await signUp(server.api, {});

    expect(await exportOf(uid, someoneElse)).toMatchObject({
      status: 403,
      body: { error: 'You can only access your own account' },
    });
    expect((await exportOf(uid)).status).toBe(401);
    expect((await server.api('GET', `/api/user/${uid}/export`, server.anonymous)).status).toBe(403);
    expect((await exportOf(uid, person)).status).toBe(200);

    const closed = await server.api('DELETE', `/api/user/${uid}`, {
      ...as(person),
      body: { password: 'correct horse' },
    });
    expect(closed.status).toBe(204);
    // As its profile does: a closed account is nobody's, so there is nothing of the person to give.
    expect(await server.api('GET', `/api/user/${uid}`, as(person))).toMatchObject({ status: 404 });
    expect(await exportOf(uid, person)).toMatchObject({ status: 404, body: { error: 'User not found' } });
  });
});
