import { adminOutboxPage, type AuthSession, authSession, unsubscribeAnswer, user } from '@qrshirt/contracts';
import {
  as,
  createFundraiser,
  eventually,
  type LocalSmtp,
  newClient,
  type ReceivedMail,
  scanner,
  signUp,
  startSmtpServer,
  uniqueEmail,
  WAIT_MS,
} from '@qrshirt/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY, MINUTE, testClock } from './support/accounts';
import { asUser, startTestServer, type TestServer } from './support/test-server';
import { sendWebhook, succeeded } from './support/webhooks';

/*
 * Owners who asked for it get one mail the morning after each day their shirt was scanned or
 * raised money, by SMTP to a real server on loopback; time moves by the injected clock, and the
 * job runs on its own (a short interval) besides the runs the test makes.
 */

const BASE = 'https://shirts.example';
const ADMIN_EMAIL = 'summary-ops@example.org';
const PASSWORD = 'correct horse';
// Noon (UTC) of the day before today: day D of the test, close to real time.
const MIDNIGHT_D = Math.floor(Date.now() / DAY) * DAY - DAY;
const DAY_D = new Date(MIDNIGHT_D).toISOString().slice(0, 10);
const time = testClock(MIDNIGHT_D + 12 * 60 * MINUTE);
const env = { SMTP_URL: '', PUBLIC_BASE_URL: BASE, ADMIN_EMAILS: ADMIN_EMAIL };
let smtp: LocalSmtp;
let server: TestServer;

interface Owner {
  uid: string;
  email: string;
  fundraiserId: string;
}

const mailsTo = (address: string, subject: RegExp) =>
  smtp.messages.filter(
    (message) => message.to.toLowerCase().includes(address.toLowerCase()) && subject.test(message.subject),
  );
const summariesTo = (owner: Owner) => mailsTo(owner.email, /^Your shirts? yesterday/);

const linkToken = (mail: ReceivedMail, page: string) => {
  const token = new RegExp(`${BASE}/${page}#token=([A-Za-z0-9_.-]+)`).exec(mail.text)?.[1];
  if (!token) throw new Error(`no ${page} link in: ${mail.text}`);
  return token;
};

/** Follows the sign-up's link, signed in as the account that asked for it. */
async function verify(email: string, session: AuthSession) {
  const [mail] = await smtp.waitFor(() => mailsTo(email, /Confirm your email/).length > 0);
  expect(mail).toBeDefined();
  const token = linkToken(mailsTo(email, /Confirm your email/)[0]!, 'verify-email');
  expect((await server.api('POST', '/api/auth/verify-email', { ...as(session), body: { token } })).status).toBe(200);
}

/** A member with a shirt of their own; `verified`: followed the link, `dailySummary`: asked for the mail. */
async function owner(name: string, { verified = true, dailySummary = true } = {}): Promise<Owner> {
  const email = uniqueEmail(name);
  const session = await signUp(server.api, { email, password: PASSWORD, displayName: name });
  if (verified) await verify(email, session);
  if (dailySummary) {
    const answer = await server.api('PATCH', `/api/user/${session.user.uid}`, {
      ...as(session),
      body: { dailySummary: true },
    });
    expect(answer.status).toBe(200);
    expect(user.parse(answer.body)).toMatchObject({ dailySummary: true, displayName: name });
  }
  const { id } = await createFundraiser(server.api, as(session), { name: `${name}'s shirt` });
  return { uid: session.user.uid, email, fundraiserId: id };
}

let scanners = 0;
async function scan(owner: Owner, times = 1) {
  for (let index = 0; index < times; index++) {
    const answer = await server.api('POST', `/api/fundraisers/${owner.fundraiserId}/scan`, {
      headers: scanner(++scanners),
    });
    expect(answer.status).toBe(202);
  }
}

async function donate(owner: Owner, amount: number, { live = true } = {}) {
  const answer = await sendWebhook(server.api, succeeded({ fundraiserId: owner.fundraiserId, amount, live }));
  expect(answer.status).toBe(200);
}

/** The demo processor's donation: test money, confirmed through the outbox. */
async function demoDonation(owner: Owner, amount: number) {
  const answer = await server.api('POST', '/api/demo-processor/donations', {
    body: { fundraiserId: owner.fundraiserId, amount },
  });
  expect(answer.status).toBe(202);
}

/** Resolves once every message stored so far has been delivered, as the admin Outbox screen shows. */
async function outboxDrained(target = server) {
  const signedIn = await target.api('POST', '/api/auth/signin', {
    body: { email: ADMIN_EMAIL, password: PASSWORD },
    headers: newClient(),
  });
  const admin = as(authSession.parse(signedIn.body));
  const queued = await eventually(
    async () => adminOutboxPage.parse((await target.api('GET', '/api/admin/outbox', admin)).body).counts.queued,
    (count) => count === 0,
  );
  expect(queued).toBe(0);
}

/** The job's runs, two at once as overlapping timer ticks would make them, then the mail delivered. */
async function runJob(target = server) {
  await Promise.all([target.embedded.dailySummaries.run(), target.embedded.dailySummaries.run()]);
  await target.embedded.dailySummaries.run();
  await outboxDrained(target);
}

const atTimeOfDay = (days: number, minutes: number) => {
  const target = MIDNIGHT_D + days * DAY + minutes * MINUTE;
  time.advance(target - time.clock().getTime());
};

let active: Owner;
let quiet: Owner;
let notOptedIn: Owner;
let unverified: Owner;

beforeAll(async () => {
  smtp = await startSmtpServer();
  env.SMTP_URL = smtp.url;
  server = await startTestServer({ clock: time.clock, env, dailySummaryIntervalMs: 50 });
  await verify(ADMIN_EMAIL, await signUp(server.api, { email: ADMIN_EMAIL, password: PASSWORD }));
  [active, quiet, notOptedIn, unverified] = [
    await owner('Ada'),
    await owner('Bo'),
    await owner('Cy', { dailySummary: false }),
    await owner('Di', { verified: false }),
  ];
});
afterAll(async () => {
  await server?.stop();
  await smtp?.stop();
});

describe('the daily summary mail', () => {
  it('goes once, after the day ends, to an owner who asked for it and whose shirt was busy that day', async () => {
    await scan(active, 3);
    await donate(active, 30);
    // Test money is no news: not in the figures, and a day with nothing else is a quiet one.
    await donate(active, 500, { live: false });
    await demoDonation(active, 70);
    await donate(quiet, 20, { live: false });
    await demoDonation(quiet, 5);
    await scan(notOptedIn, 2);
    await scan(unverified, 2);
    await outboxDrained();
    await server.embedded.projectionsCaughtUp(WAIT_MS);
    const statsOf = async (owner: Owner) =>
      (await server.api('GET', `/api/fundraisers/${owner.fundraiserId}/stats`, asUser(owner.uid))).body;
    expect(await statsOf(active)).toMatchObject({ amountRaised: 30, testDonations: 2, testAmountRaised: 570 });
    expect(await statsOf(quiet)).toMatchObject({ amountRaised: 0, testDonations: 2, testAmountRaised: 25 });

    // The day is not over, and then not settled: nothing yet.
    await runJob();
    atTimeOfDay(1, 5);
    await runJob();
    expect(smtp.messages.filter((message) => /yesterday/.test(message.subject))).toEqual([]);

    atTimeOfDay(1, 20);
    await runJob();
    const [summary, ...more] = summariesTo(active);
    expect(more).toEqual([]);
    expect(summary!.subject).toBe('Your shirt yesterday: 3 scans, $30 raised');
    expect(summary!.text).toContain(`On ${DAY_D} (UTC) your shirt brought 3 scans, 1 donation, $30 raised.`);
    expect(summary!.text).toContain("Ada's shirt: 3 scans, 1 donation, $30 raised.");
    expect(summary!.html).toContain(`${BASE}/unsubscribe#token=`);

    // The clock ticks on, the job keeps running: still one.
    atTimeOfDay(1, 23 * 60);
    await runJob();
    expect(summariesTo(active)).toHaveLength(1);
    // A quiet day, an owner who never asked, an address never verified: no mail.
    expect(summariesTo(quiet)).toEqual([]);
    expect(summariesTo(notOptedIn)).toEqual([]);
    expect(summariesTo(unverified)).toEqual([]);
  });

  it('stays one mail when another gateway on the same data, with no memory of it, runs the job too', async () => {
    const other = await startTestServer({ clock: time.clock, env, dataDir: server.dataDir });
    try {
      await Promise.all([runJob(other), server.embedded.dailySummaries.run()]);
      await outboxDrained();
    } finally {
      await other.stop();
    }
    expect(summariesTo(active)).toHaveLength(1);
  });

  it('stops with the link in the mail, without signing in; a forged link is refused', async () => {
    const token = linkToken(summariesTo(active)[0]!, 'unsubscribe');
    const forged = `${token.slice(0, token.lastIndexOf('.'))}.${'0'.repeat(64)}`;
    const otherOwners = `${Buffer.from(quiet.uid).toString('base64url')}${token.slice(token.lastIndexOf('.'))}`;
    for (const bad of [forged, otherOwners, 'not-a-token', `${token}.x`]) {
      const refused = await server.api('POST', '/api/unsubscribe', { body: { token: bad } });
      expect({ status: refused.status, body: refused.body }).toEqual({
        status: 404,
        body: { error: 'This unsubscribe link is not valid. Turn the daily summary off in your profile.' },
      });
    }
    expect((await server.api('POST', '/api/unsubscribe', { body: {} })).status).toBe(400);

    const stopped = await server.api('POST', '/api/unsubscribe', { body: { token } });
    expect(stopped.status).toBe(200);
    expect(unsubscribeAnswer.parse(stopped.body)).toEqual({ dailySummary: false });
    // A link followed twice still says so.
    expect((await server.api('POST', '/api/unsubscribe', { body: { token } })).status).toBe(200);

    // The next busy day: the owner who stopped gets nothing, the one whose day was quiet before does.
    await scan(active, 2);
    await scan(quiet, 1);
    await server.embedded.projectionsCaughtUp(WAIT_MS);
    atTimeOfDay(2, 30);
    await runJob();
    expect(summariesTo(active)).toHaveLength(1);
    expect(summariesTo(quiet).map((mail) => mail.subject)).toEqual(['Your shirt yesterday: 1 scan']);
  });
});
