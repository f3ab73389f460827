import { inflateSync } from 'node:zlib';
import jsQR from 'jsqr';
import { PDFDict, PDFDocument, PDFName, PDFNumber, PDFRawStream } from 'pdf-lib';
import {
  adminWaitlistEntriesPage,
  type AdminWaitlistEntry,
  type AuthSession,
  fulfilledWaitlistEntry,
  fundraiser,
  userStats,
} from '@qrshirt/contracts';
import { SHORT_CODE_ALPHABET, SHORT_CODE_LENGTH } from '@qrshirt/core';
import {
  as,
  type LocalSmtp,
  type ReceivedMail,
  type RequestOptions,
  scanner,
  signUp,
  startSmtpServer,
  uniqueEmail,
  WAIT_MS,
} from '@qrshirt/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY, testClock } from './support/accounts';
import { confirmDonation } from './support/webhooks';
import { startTestServer, type TestServer } from './support/test-server';

/*
 * The owner's journey over HTTP, with mail delivered by SMTP to a real server on loopback: join
 * the waitlist and confirm the address, an operator fulfils the entry, the claim link arrives, the
 * person signs up with the address and verifies it, claims, sees the scans made before, re-points
 * the shirt to another charity and sets a goal.
 */

const ADMIN_EMAIL = 'fulfil-ops@example.org';
const BASE = 'https://shirts.example';

/** Where a short link of a QR code sends a phone, asked of this server. */
async function landingOf(link: string): Promise<string | null> {
  const answer = await fetch(`${server.url}${new URL(link).pathname}`, { redirect: 'manual' });
  expect(answer.status).toBe(302);
  return answer.headers.get('location');
}
const time = testClock();
let smtp: LocalSmtp;
let server: TestServer;
let admin: RequestOptions;
let shirt: { id: string; name: string; sizes: string[] };
let charity: { id: string; name: string };
let otherCharity: { id: string; name: string };

async function mailTo(address: string, subject: RegExp, count = 1): Promise<ReceivedMail> {
  const matching = (messages: ReceivedMail[]) =>
    messages.filter(
      (message) => message.to.toLowerCase().includes(address.toLowerCase()) && subject.test(message.subject),
    );
  return matching(await smtp.waitFor((messages) => matching(messages).length >= count)).at(-1)!;
}

const linkToken = (mail: ReceivedMail, page: string) => {
  const token = new RegExp(`${BASE}/${page}#token=([A-Za-z0-9_.-]+)`).exec(mail.text)?.[1];
  if (!token) throw new Error(`no ${page} link in: ${mail.text}`);
  return token;
};

/** Signs up with `email` and follows the verification link the sign-up mailed. */
async function verifiedMember(email: string, verify = true) {
  const session = await signUp(server.api, { email });
  if (verify) await verifyAddress(email, session);
  return session;
}

async function signIn(email: string) {
  const signedIn = await server.api('POST', '/api/auth/signin', {
    body: { email, password: 'correct horse' },
    headers: { 'x-forwarded-for': '192.0.2.77' },
  });
  expect(signedIn.status).toBe(200);
  return signedIn.body;
}

/** Follows the sign-up's link, signed in as the account that asked for it. */
async function verifyAddress(email: string, session: AuthSession) {
  const token = linkToken(await mailTo(email, /Confirm your email/), 'verify-email');
  const verified = await server.api('POST', '/api/auth/verify-email', { ...as(session), body: { token } });
  expect(verified.status).toBe(200);
}

const confirmSignup = (token: unknown) => server.api('POST', '/api/waitlist/confirm', { body: { token } });

/** Joins the waitlist and, unless told not to, opens the confirmation link the signup mailed. */
async function join(email: string, size = shirt.sizes[0]!, confirm = true) {
  const answer = await server.api('POST', '/api/waitlist', {
    body: { shirtId: shirt.id, selectedSize: size, selectedCharity: charity.id, name: 'Wren Waiter', email },
  });
  expect(answer.status).toBe(201);
  if (confirm) {
    const confirmed = await confirmSignup(linkToken(await mailTo(email, /Confirm your place/), 'waitlist/confirm'));
    expect(confirmed).toMatchObject({ status: 200, body: { confirmed: true, shirtId: shirt.id, size } });
  }
  return answer.body.data.id as string;
}

/** The admin's list and fulfilment read the waitlist-entries read model: let it see what was just done. */
const projected = () => server.embedded.projectionsCaughtUp(WAIT_MS);

async function entry(entryId: string): Promise<AdminWaitlistEntry> {
  await projected();
  const answer = await server.api('GET', '/api/admin/waitlist/entries?limit=500', admin);
  const found = adminWaitlistEntriesPage.parse(answer.body).entries.find((listed) => listed.id === entryId);
  if (!found) throw new Error(`entry ${entryId} is not listed`);
  return found;
}

const fulfil = async (entryId: string) => {
  await projected();
  return server.api('POST', `/api/admin/waitlist/entries/${entryId}/fulfil`, { ...admin, body: undefined });
};
const claim = (token: unknown, session: Parameters<typeof as>[0]) =>
  server.api('POST', '/api/claims', { ...as(session), body: { token } });

beforeAll(async () => {
  smtp = await startSmtpServer();
  server = await startTestServer({
    clock: time.clock,
    env: { SMTP_URL: smtp.url, PUBLIC_BASE_URL: `${BASE}/`, ADMIN_EMAILS: ADMIN_EMAIL },
  });
  admin = as(await verifiedMember(ADMIN_EMAIL));
  [shirt] = (await server.api('GET', '/api/shirts')).body;
  [charity, otherCharity] = (await server.api('GET', '/api/charities')).body;
});
afterAll(async () => {
  await server?.stop();
  await smtp?.stop();
});

describe('fulfilling a waitlist entry and claiming its shirt', () => {
  it('takes a person from the waitlist to owning the shirt, with the scans made before the claim', async () => {
    const email = uniqueEmail('wren');
    const entryId = await join(email, shirt.sizes[0], false);
    // Until its address is confirmed, an entry is not fulfilled: a claim link would go to whoever was typed in.
    expect(await entry(entryId)).toMatchObject({ status: 'unconfirmed', fundraiserId: null });
    expect(await fulfil(entryId)).toMatchObject({
      status: 409,
      body: { error: expect.stringMatching(/not been confirmed/) },
    });
    const confirmation = await mailTo(email, /Confirm your place/);
    expect(confirmation.subject).toBe(`Confirm your place on the ${shirt.name} waitlist`);
    const confirmToken = linkToken(confirmation, 'waitlist/confirm');
    for (const forged of [`${confirmToken.slice(0, -4)}AAAA`, 'nonsense', `${confirmToken}.x`]) {
      expect(await confirmSignup(forged), forged).toMatchObject({ status: 404 });
    }
    expect((await confirmSignup('')).status).toBe(400);
    // The mail lost? The same signup again, 10 minutes on, mails a new link; the first still works.
    time.advance(10 * 60_000);
    const again = await server.api('POST', '/api/waitlist', {
      body: { shirtId: shirt.id, selectedSize: shirt.sizes[0], selectedCharity: charity.id, name: 'Wren', email },
    });
    expect(again).toMatchObject({ status: 201, body: { data: { id: entryId } } });
    const resent = linkToken(await mailTo(email, /Confirm your place/, 2), 'waitlist/confirm');
    expect(resent).not.toBe(confirmToken);
    expect(await confirmSignup(confirmToken)).toMatchObject({ status: 200, body: { shirtName: shirt.name } });
    // Links are single-use (the rule): opened again, or another of the entry's, they say
    // the place is confirmed rather than pretend to confirm it again.
    const used = { status: 409, body: { error: 'Your place is confirmed already: a confirmation link works once' } };
    expect(await confirmSignup(confirmToken)).toMatchObject(used);
    expect(await confirmSignup(resent)).toMatchObject(used);
    expect(await entry(entryId)).toMatchObject({ status: 'waiting', fundraiserId: null });
    // Joining again is the same signup: no second entry, no second mail.
    const rejoined = await server.api('POST', '/api/waitlist', {
      body: { shirtId: shirt.id, selectedSize: shirt.sizes[0], selectedCharity: charity.id, name: 'Wren', email },
    });
    expect(rejoined.body.data.id).toBe(entryId);

    const fulfilled = await fulfil(entryId);
    expect(fulfilled.status).toBe(201);
    const { fundraiser: made, qr } = fulfilledWaitlistEntry.parse(fulfilled.body);
    expect(made).toMatchObject({ userId: null, shirtId: shirt.id, charityId: charity.id, name: shirt.name });
    // The QR code encodes the fundraiser's short link, which leads to its page as a scan.
    expect(qr.target).toMatch(new RegExp(`^${BASE}/q/[${SHORT_CODE_ALPHABET}]{${SHORT_CODE_LENGTH}}$`));
    expect(await landingOf(qr.target)).toBe(`/fundraiser/${made.id}?scan=true`);
    const svg = await server.api('GET', qr.svg);
    expect(svg.status).toBe(200);
    expect(await entry(entryId)).toMatchObject({ status: 'fulfilled', fundraiserId: made.id });

    // Twice is refused: one shirt, one fundraiser.
    expect(await fulfil(entryId)).toMatchObject({
      status: 409,
      body: { error: 'This waitlist entry has been fulfilled already' },
    });

    // Worn before it is claimed: these scans are the fundraiser's, and will be the owner's.
    for (const n of [1, 2, 3]) {
      const scan = await server.api('POST', `/api/fundraisers/${made.id}/scan`, { headers: scanner(n) });
      expect(scan.status).toBe(202);
    }
    await confirmDonation(server.api, { fundraiserId: made.id, amount: 20 });

    const mail = await mailTo(email, /is ready/);
    expect(mail.subject).toBe(`Your ${shirt.name} shirt is ready`);
    expect(mail.html).toContain(`${BASE}/claim#token=`);
    const token = linkToken(mail, 'claim');

    // Signed up with the address in another case, not verified yet: not theirs to claim yet.
    const person = await verifiedMember(email.toUpperCase(), false);
    expect(await claim(token, person)).toMatchObject({
      status: 403,
      body: { error: 'Verify your email address before you claim this shirt' },
    });
    await verifyAddress(email, person);

    const claimed = await claim(token, person);
    expect(claimed.status).toBe(201);
    expect(fundraiser.parse(claimed.body)).toEqual({ ...made, userId: person.user.uid });
    // Theirs at once, the read model caught up with the claim or not; nobody else's.
    const shown = (options = {}) => server.api('GET', `/api/fundraisers/${made.id}`, options);
    expect((await shown(as(person))).body).toMatchObject({ id: made.id, owned: true });
    expect((await shown()).body).toMatchObject({ id: made.id, owned: false });

    // Once only: the claimant's retry (its answer lost) is answered as the claim was; anyone else is refused.
    expect(await claim(token, person)).toMatchObject({ status: 200, body: claimed.body });
    const latecomer = await verifiedMember(uniqueEmail('latecomer'));
    expect(await claim(token, latecomer)).toMatchObject({
      status: 409,
      body: { error: 'This claim link has been used already' },
    });
    expect(await entry(entryId)).toMatchObject({ status: 'claimed', fundraiserId: made.id });
    const csv = await fetch(`${server.url}/api/admin/waitlist/entries.csv`, {
      headers: { authorization: `Bearer ${admin.token}` },
    });
    const line = (await csv.text()).split('\r\n').find((row) => row.includes(email));
    expect(line).toMatch(new RegExp(`,claimed,${made.id}$`));

    // The owner's figures: the scans made before the claim count for them.
    const stats = await server.api('GET', `/api/fundraisers/${made.id}/stats`, as(person));
    expect(stats).toMatchObject({ status: 200, body: { scans: 3, donations: 1, amountRaised: 20 } });
    await server.embedded.projectionsCaughtUp(WAIT_MS);
    const theirs = userStats.parse((await server.api('GET', `/api/user/${person.user.uid}/stats`, as(person))).body);
    expect(theirs.fundraiserStats).toEqual([expect.objectContaining({ id: made.id, scans: 3 })]);

    // Theirs to change now: another charity (the scans so far stay with the first) and a goal.
    const changed = await server.api('PATCH', `/api/fundraisers/${made.id}`, {
      ...as(person),
      body: { charityId: otherCharity.id, goal: 250 },
    });
    expect(changed).toMatchObject({ status: 200, body: { charityId: otherCharity.id, goal: 250 } });
    await server.api('POST', `/api/fundraisers/${made.id}/scan`, { headers: scanner(4) });
    await server.embedded.projectionsCaughtUp(WAIT_MS);
    expect((await server.api('GET', `/api/fundraisers/${made.id}`)).body).toMatchObject({
      charityId: otherCharity.id,
      goal: 250,
      amountRaised: 20,
    });
    const byCharity = (await server.api('GET', `/api/fundraisers/${made.id}/stats`, as(person))).body.byCharity;
    expect(byCharity).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ charityId: charity.id, scans: 3, amountRaised: 20 }),
        expect.objectContaining({ charityId: otherCharity.id, scans: 1 }),
      ]),
    );
    // Nobody else may.
    const stranger = await verifiedMember(uniqueEmail('meddler'));
    expect(
      (await server.api('PATCH', `/api/fundraisers/${made.id}`, { ...as(stranger), body: { goal: 1 } })).status,
    ).toBe(403);
  });

  it("refuses a stranger's claim, and keeps the link for its person", async () => {
    const email = uniqueEmail('kept');
    const entryId = await join(email);
    const { fundraiser: made } = fulfilledWaitlistEntry.parse((await fulfil(entryId)).body);
    const token = linkToken(await mailTo(email, /is ready/), 'claim');

    const stranger = await verifiedMember(uniqueEmail('stranger'));
    expect(await claim(token, stranger)).toMatchObject({
      status: 403,
      body: { error: 'This claim link was mailed to another address: sign in with the account of that address' },
    });
    // A made-up token of the entry, or nothing like a token: not a link of ours.
    for (const forged of [`${entryId}.not-the-secret`, 'nonsense', `${'x'.repeat(40)}.y`]) {
      expect(await claim(forged, stranger), forged).toMatchObject({ status: 404 });
    }
    expect((await claim('', stranger)).status).toBe(400);
    expect((await server.api('POST', '/api/claims', { body: { token } })).status).toBe(401);

    const person = await verifiedMember(email);
    expect(await claim(token, person)).toMatchObject({ status: 201, body: { id: made.id, userId: person.user.uid } });
  });

  it('refuses unknown entries and a link older than 30 days, then claims with the new one an operator mails', async () => {
    expect(await fulfil('no-such-entry')).toMatchObject({ status: 404, body: { error: 'Waitlist entry not found' } });
    const email = uniqueEmail('late');
    const entryId = await join(email);
    expect((await fulfil(entryId)).status).toBe(201);
    const token = linkToken(await mailTo(email, /is ready/), 'claim');
    await verifiedMember(email);
    time.advance(31 * DAY);
    // A month later the person signs in again (their earlier session has expired), and so does the operator.
    const signedIn = await signIn(email);
    const operator = as(await signIn(ADMIN_EMAIL));
    expect(await claim(token, signedIn)).toMatchObject({
      status: 410,
      body: { error: 'This claim link has expired (links work for 30 days): ask us for a new one' },
    });

    // They ask; an operator mails a new link, which works where the old one no longer does.
    const reissue = () =>
      server.api('POST', `/api/admin/waitlist/entries/${entryId}/claim-link`, { ...operator, body: undefined });
    const reissued = await reissue();
    expect(reissued.status).toBe(200);
    const { fundraiser: made } = fulfilledWaitlistEntry.parse(reissued.body);
    const newToken = linkToken(await mailTo(email, /is ready/, 2), 'claim');
    expect(newToken).not.toBe(token);
    expect((await claim(token, signedIn)).status).toBe(404);
    expect(await claim(newToken, signedIn)).toMatchObject({ status: 201, body: { id: made.id } });
    expect(await reissue()).toMatchObject({
      status: 409,
      body: { error: "This entry's shirt has been claimed already" },
    });
    // Back to today, where the other tests' sessions still work.
    time.advance(-31 * DAY);
  });
});

/** Each page's QR codes as a phone would read them, and every text the pages show. */
async function readSheet(bytes: Uint8Array): Promise<{ pages: string[][]; texts: string[] }> {
  const pdf = await PDFDocument.load(bytes);
  const pages = pdf.getPages().map((page) => {
    const xObjects = page.node.Resources()?.lookup(PDFName.of('XObject'), PDFDict);
    return (xObjects?.values() ?? []).map((ref) => {
      const image = pdf.context.lookup(ref);
      if (!(image instanceof PDFRawStream)) throw new Error('an XObject that is not a stream');
      const width = image.dict.lookup(PDFName.of('Width'), PDFNumber).asNumber();
      const height = image.dict.lookup(PDFName.of('Height'), PDFNumber).asNumber();
      // pdf-lib stores a PNG's pixels as 8-bit RGB, deflated.
      expect(image.dict.lookup(PDFName.of('ColorSpace'))).toEqual(PDFName.of('DeviceRGB'));
      const rgb = inflateSync(image.contents);
      const rgba = new Uint8ClampedArray(width * height * 4);
      for (let pixel = 0; pixel < width * height; pixel += 1) {
        rgba.set([rgb[pixel * 3]!, rgb[pixel * 3 + 1]!, rgb[pixel * 3 + 2]!, 255], pixel * 4);
      }
      // At least 300 dots per inch at the 45 mm the sheet prints it.
      expect(width / (45 / 25.4)).toBeGreaterThanOrEqual(300);
      return jsQR(rgba, width, height)?.data ?? '(unreadable)';
    });
  });
  const texts: string[] = [];
  for (const [, object] of pdf.context.enumerateIndirectObjects()) {
    if (!(object instanceof PDFRawStream) || object.dict.has(PDFName.of('Subtype'))) continue;
    const content = inflateSync(object.contents).toString('latin1');
    for (const [, hex] of content.matchAll(/<([0-9A-Fa-f]+)> Tj/g))
      texts.push(Buffer.from(hex!, 'hex').toString('latin1'));
  }
  return { pages, texts };
}

describe('fulfilling every waiting entry of a shirt and size', () => {
  it('answers a print-ready PDF whose codes lead to the new fundraisers, each short code printed under its code', async () => {
    const size = shirt.sizes.at(-1)!;
    const emails = Array.from({ length: 14 }, (_, index) => uniqueEmail(`batch${index}`));
    const entryIds: string[] = [];
    for (const email of emails) entryIds.push(await join(email, size));
    // One never confirmed its address: the sheet leaves it out, and it keeps waiting for that.
    const unconfirmed = await join(uniqueEmail('unsure'), size, false);
    // One was fulfilled on its own before: the sheet leaves it out.
    const alone = fulfilledWaitlistEntry.parse((await fulfil(entryIds[0]!)).body).fundraiser.id;

    await projected();
    const answer = await fetch(`${server.url}/api/admin/waitlist/fulfil`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ shirtId: shirt.id, size }),
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/pdf');
    const { pages, texts } = await readSheet(new Uint8Array(await answer.arrayBuffer()));
    // 13 codes, 12 to an A4 page.
    expect(pages.map((codes) => codes.length)).toEqual([12, 1]);

    await projected();
    const listed = adminWaitlistEntriesPage
      .parse((await server.api('GET', '/api/admin/waitlist/entries?limit=500', admin)).body)
      .entries.filter((listedEntry) => entryIds.includes(listedEntry.id));
    expect(listed.every((listedEntry) => listedEntry.status === 'fulfilled')).toBe(true);
    const made = listed.map((listedEntry) => listedEntry.fundraiserId!).filter((id) => id !== alone);
    const links = pages.flat();
    for (const link of links)
      expect(link).toMatch(new RegExp(`^${BASE}/q/[${SHORT_CODE_ALPHABET}]{${SHORT_CODE_LENGTH}}$`));
    const landings = await Promise.all(links.map(landingOf));
    expect(landings.sort()).toEqual(made.map((id) => `/fundraiser/${id}?scan=true`).sort());
    expect(await entry(unconfirmed)).toMatchObject({ status: 'unconfirmed', fundraiserId: null });
    // Under each code, its short code: what a person types after /q/ when their phone cannot scan.
    for (const link of links) expect(texts).toContain(link.slice(`${BASE}/q/`.length));

    // Everyone on the sheet got their claim link; nobody waits any more.
    for (const email of emails) await mailTo(email, /is ready/);
    await projected();
    const again = await server.api('POST', '/api/admin/waitlist/fulfil', {
      ...admin,
      body: { shirtId: shirt.id, size },
    });
    expect(again.status).toBe(404);
  });
});
