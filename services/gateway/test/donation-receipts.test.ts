import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { adminOutboxPage, eventMetadata, personalDataExport } from '@qrshirt/contracts';
import { donationReceiptStreamName, processorDonationStreamName, withPersonalData } from '@qrshirt/core';
import {
  as,
  callOperation,
  createFundraiser,
  type LocalSmtp,
  type ReceivedMail,
  type RequestOptions,
  signUp,
  startRecordingProxy,
  startSmtpServer,
  uniqueEmail,
  waitFor,
} from '@qrshirt/test-support';
import { describeWithStripeMock } from '@qrshirt/test-support/vitest';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCheckoutSigner } from '../src/donations/checkout-signature';
import { asUser, startTestServer, type TestServer } from './support/test-server';

/*
 * Donors' receipts over the real gateway: Stripe's events signed by the official package with the
 * endpoint's secret, the mail delivered by the outbox to a real SMTP server on loopback, the log
 * and the outbox in SQLite files.
 */

const SECRET = 'whsec_receipts_test';
const SECRET_KEY = 'sk_test_receipts';
const ADMIN_EMAIL = 'receipts-ops@example.org';
const NO_GOODS = 'No goods or services were provided in exchange for this donation.';
const signer = createCheckoutSigner(SECRET_KEY);
// Only its webhooks helpers are used: they make signatures, and call no API.
const stripe = new Stripe('sk_test_signing_only');

let smtp: LocalSmtp;
let server: TestServer;
let admin: RequestOptions;

/** Mail to `address` whose subject matches, once there are `count`. */
async function mailsTo(address: string, subject: RegExp, count = 1): Promise<ReceivedMail[]> {
  const matching = (messages: ReceivedMail[]) =>
    messages.filter(
      (message) => message.to.toLowerCase().includes(address.toLowerCase()) && subject.test(message.subject),
    );
  return matching(await smtp.waitFor((messages) => matching(messages).length >= count));
}

/** Once the outbox has delivered all it holds (each receipt is stored before its webhook answers), the receipts `address` got. */
async function receiptsDeliveredTo(address: string): Promise<ReceivedMail[]> {
  await waitFor(
    'the outbox to deliver every message',
    async () => adminOutboxPage.parse((await server.api('GET', '/api/admin/outbox', admin)).body).counts,
    (counts) => counts.queued === 0,
  );
  return smtp.messages.filter(
    (message) => message.to.toLowerCase().includes(address.toLowerCase()) && /receipt/i.test(message.subject),
  );
}

async function signedUpAndVerified(email: string) {
  const session = await signUp(server.api, { email });
  const [mail] = await mailsTo(email, /Confirm your email/);
  const token = /verify-email#token=([A-Za-z0-9_.-]+)/.exec(mail!.text)?.[1];
  expect((await server.api('POST', '/api/auth/verify-email', { ...as(session), body: { token } })).status).toBe(200);
  return session;
}

beforeAll(async () => {
  smtp = await startSmtpServer();
  server = await startTestServer({
    env: {
      SMTP_URL: smtp.url,
      ADMIN_EMAILS: ADMIN_EMAIL,
      STRIPE_SECRET_KEY: SECRET_KEY,
      STRIPE_PUBLISHABLE_KEY: 'pk_test_receipts',
      STRIPE_WEBHOOK_SECRET: SECRET,
    },
  });
  admin = as(await signedUpAndVerified(ADMIN_EMAIL));
});
afterAll(async () => {
  await server?.stop();
  await smtp?.stop();
});

/** An admin's charity, its legal name and tax id given or not, and a fundraiser for it. */
async function charityAndFundraiser(receiptFields: { legalName?: string; taxId?: string }) {
  const name = `Hive Help ${randomUUID().slice(0, 8)}`;
  const created = await server.api('POST', '/api/admin/charities', {
    ...admin,
    body: { name, mission: 'Keeps city bees fed.', website_url: 'https://hives.example.org', ...receiptFields },
  });
  expect(created.status).toBe(201);
  const charityId = created.body.id as string;
  const fundraiser = await createFundraiser(server.api, asUser(`owner-${randomUUID()}`), { charityId });
  return { name, charityId, fundraiserId: fundraiser.id };
}

interface StripeEvent {
  id: string;
  type: string;
  created: number;
  livemode: boolean;
  data: { object: Record<string, unknown> };
}

const seconds = (iso: string) => Date.parse(iso) / 1000;
const now = () => Math.floor(Date.now() / 1000);

const event = (
  type: string,
  object: Record<string, unknown>,
  { livemode = true, created = now() } = {},
): StripeEvent => ({
  id: `evt_${randomUUID().replaceAll('-', '')}`,
  type,
  created,
  livemode,
  data: { object },
});

/** A paid Checkout Session of the product's, its donor's address in `customer_details` as Checkout collects it. */
function paid(
  { fundraiserId, charityId }: { fundraiserId: string; charityId: string },
  cents: number,
  {
    paymentIntent,
    email,
    livemode = true,
    created = now(),
  }: { paymentIntent: string; email: string | null; livemode?: boolean; created?: number },
  type = 'checkout.session.completed',
): StripeEvent {
  const reportId = randomUUID();
  return event(
    type,
    {
      id: `cs_test_${randomUUID()}`,
      object: 'checkout.session',
      amount_total: cents,
      currency: 'usd',
      payment_intent: paymentIntent,
      payment_status: 'paid',
      customer_details:
        email === null ? null : { email, name: null, phone: null, address: null, tax_exempt: 'none', tax_ids: [] },
      metadata: {
        fundraiserId,
        reportId,
        charityId,
        signature: signer.sign({ fundraiserId, reportId, charityId, amountCents: cents }),
      },
    },
    { livemode, created },
  );
}

const refund = (type: string, paymentIntent: string, refundId: string, amount: number, status: string) =>
  event(type, { id: refundId, object: 'refund', payment_intent: paymentIntent, amount, status, created: now() });

const dispute = (type: string, paymentIntent: string, disputeId: string, amount: number, status: string) =>
  event(type, { id: disputeId, object: 'dispute', payment_intent: paymentIntent, amount, status, currency: 'usd' });

function send(sent: StripeEvent) {
  const body = JSON.stringify(sent);
  const signature = stripe.webhooks.generateTestHeaderString({ payload: body, secret: SECRET });
  return server.api('POST', '/api/webhooks/stripe', { rawBody: body, headers: { 'stripe-signature': signature } });
}

const newPayment = () => `pi_${randomUUID().replaceAll('-', '')}`;

describe('a donor’s receipt', () => {
  it('names the charity as registered, its tax id, the amount, the date and the payment id, once however often Stripe delivers', async () => {
    const cause = await charityAndFundraiser({ legalName: 'Hive Help Foundation, Inc.', taxId: '12-3456789' });
    const donor = uniqueEmail('dora');
    const paymentIntent = newPayment();
    const completed = paid(cause, 1250, { paymentIntent, email: donor, created: seconds('2026-03-14T23:30:00Z') });

    expect(await send(completed)).toMatchObject({ status: 200, body: { outcome: 'confirmed' } });
    const [receipt] = await mailsTo(donor, /^Receipt for your donation to Hive Help Foundation, Inc\.$/);
    for (const part of [receipt!.text, receipt!.html]) {
      expect(part).toContain('Hive Help Foundation, Inc.');
      expect(part).toContain('12-3456789');
      expect(part).toContain('$12.50');
      expect(part).toContain('March 14, 2026 (UTC)');
      expect(part).toContain(paymentIntent);
      expect(part).toContain(NO_GOODS);
    }
    expect(receipt!.text).toContain('Tax id (EIN): 12-3456789');
    expect(receipt!.text).not.toMatch(/test/i);

    // Stripe's retry of the same event, the same payment under another event, a third copy.
    expect(await send(completed)).toMatchObject({ status: 200, body: { outcome: 'unchanged' } });
    const again = paid(cause, 1250, { paymentIntent, email: donor }, 'checkout.session.async_payment_succeeded');
    expect(await send(again)).toMatchObject({ status: 200, body: { outcome: 'unchanged' } });
    expect(await send({ ...completed, id: `${completed.id}_resent` })).toMatchObject({
      body: { outcome: 'unchanged' },
    });
    expect(await receiptsDeliveredTo(donor)).toHaveLength(1);
  });

  it('names the charity by its name, without a tax id, when its admin gave neither', async () => {
    const cause = await charityAndFundraiser({});
    const donor = uniqueEmail('noel');
    const paymentIntent = newPayment();
    expect(await send(paid(cause, 500, { paymentIntent, email: donor }))).toMatchObject({
      body: { outcome: 'confirmed' },
    });
    const [receipt] = await mailsTo(donor, /^Receipt for your donation to /);
    expect(receipt!.subject).toBe(`Receipt for your donation to ${cause.name}`);
    expect(receipt!.text).toContain(`Charity: ${cause.name}`);
    expect(receipt!.text).not.toContain('Tax id');
    expect(receipt!.text).toContain(NO_GOODS);
  });

  it('says plainly that a payment with test money is a test', async () => {
    const cause = await charityAndFundraiser({ taxId: '12-3456789' });
    const donor = uniqueEmail('tess');
    const paymentIntent = newPayment();
    expect(await send(paid(cause, 700, { paymentIntent, email: donor, livemode: false }))).toMatchObject({
      body: { outcome: 'confirmed' },
    });
    const [receipt] = await mailsTo(donor, /Receipt for your donation/);
    expect(receipt!.subject).toMatch(/^\[Test\] Receipt for your donation to /);
    expect(receipt!.text).toContain('This is a test: the payment was made with test money');
  });

  it('is not mailed for a payment that gave no address, which still counts', async () => {
    const cause = await charityAndFundraiser({ taxId: '12-3456789' });
    const paymentIntent = newPayment();
    expect(await send(paid(cause, 900, { paymentIntent, email: null }))).toMatchObject({
      status: 200,
      body: { outcome: 'confirmed' },
    });
    const ledger = await server.embedded.eventStore.readStream(processorDonationStreamName(paymentIntent));
    expect(ledger.map(({ type }) => type)).toEqual(['DonationConfirmed']);
    expect(await server.embedded.eventStore.readStream(donationReceiptStreamName(paymentIntent))).toEqual([]);
  });

  it('is mailed, once, on the retry of a delivery that stopped after the money and before the mail', async () => {
    const cause = await charityAndFundraiser({ legalName: 'Hive Help Foundation, Inc.', taxId: '12-3456789' });
    const donor = uniqueEmail('rita');
    const paymentIntent = newPayment();
    const completed = paid(cause, 2000, { paymentIntent, email: donor });
    // What the first delivery stored before it stopped: the payment and its address, not the mail
    // nor the delivery itself. Through the store that seals, as the gateway writes.
    const at = new Date().toISOString();
    await withPersonalData(server.embedded.eventStore, server.embedded.personalData).appendToStream(
      processorDonationStreamName(paymentIntent),
      [
        {
          type: 'DonationConfirmed',
          data: {
            donationId: paymentIntent,
            fundraiserId: cause.fundraiserId,
            charityId: cause.charityId,
            amountCents: 2000,
            currency: 'USD',
            reportId: null,
            live: true,
            at,
          },
          metadata: eventMetadata('DonationConfirmed'),
        },
        {
          type: 'DonationReceiptAddressed',
          data: { donationId: paymentIntent, email: donor, at },
          metadata: eventMetadata('DonationReceiptAddressed'),
        },
      ],
    );

    expect(await send(completed)).toMatchObject({ status: 200, body: { outcome: 'unchanged' } });
    await mailsTo(donor, /^Receipt for your donation/);
    expect(await send({ ...completed, id: `${completed.id}_again` })).toMatchObject({
      body: { outcome: 'unchanged' },
    });
    expect(await receiptsDeliveredTo(donor)).toHaveLength(1);
  });
});

describe('an updated receipt', () => {
  it('follows a refund, its failure and a won dispute, once each, saying what changed and what the donation counts', async () => {
    const cause = await charityAndFundraiser({ legalName: 'Hive Help Foundation, Inc.', taxId: '12-3456789' });
    const donor = uniqueEmail('uma');
    const paymentIntent = newPayment();
    expect(await send(paid(cause, 1250, { paymentIntent, email: donor }))).toMatchObject({
      body: { outcome: 'confirmed' },
    });
    await mailsTo(donor, /^Receipt for/);

    expect(await send(refund('refund.created', paymentIntent, 're_1', 300, 'pending'))).toMatchObject({
      body: { outcome: 'refunded' },
    });
    const [refunded] = await mailsTo(donor, /^Updated receipt for your donation to Hive Help Foundation, Inc\.$/);
    expect(refunded!.text).toContain('$3.00 of your donation to Hive Help Foundation, Inc. was refunded');
    expect(refunded!.text).toContain('Amount: $12.50');
    expect(refunded!.text).toContain('Refunded: $3.00');
    expect(refunded!.text).toContain('Donation now: $9.50');
    expect(refunded!.text).toContain('Tax id (EIN): 12-3456789');
    expect(refunded!.text).toContain(paymentIntent);
    expect(refunded!.text).toContain(NO_GOODS);

    // The refund succeeding moves no money: nothing new to say.
    expect(await send(refund('refund.updated', paymentIntent, 're_1', 300, 'succeeded'))).toMatchObject({
      body: { outcome: 'recorded' },
    });
    expect(await send(refund('refund.failed', paymentIntent, 're_1', 300, 'failed'))).toMatchObject({
      body: { outcome: 'restored' },
    });
    const [, givenBack] = await mailsTo(donor, /^Updated receipt/, 2);
    expect(givenBack!.text).toContain(
      '$3.00 of your donation to Hive Help Foundation, Inc. that was taken back counts again',
    );
    expect(givenBack!.text).not.toContain('Refunded:');

    const withdrawn = dispute('charge.dispute.funds_withdrawn', paymentIntent, 'dp_1', 1250, 'needs_response');
    expect(await send(withdrawn)).toMatchObject({ body: { outcome: 'refunded' } });
    const [, , disputed] = await mailsTo(donor, /^Updated receipt/, 3);
    expect(disputed!.text).toContain('Donation now: $0.00');
    const reinstated = dispute('charge.dispute.funds_reinstated', paymentIntent, 'dp_1', 1250, 'won');
    expect(await send(reinstated)).toMatchObject({ body: { outcome: 'restored' } });
    const [, , , won] = await mailsTo(donor, /^Updated receipt/, 4);
    expect(won!.text).toContain(
      '$12.50 of your donation to Hive Help Foundation, Inc. that was taken back counts again',
    );

    // Stripe closing the dispute as won, and the failure said again, change nothing more.
    expect(await send(dispute('charge.dispute.closed', paymentIntent, 'dp_1', 1250, 'won'))).toMatchObject({
      body: { outcome: 'unchanged' },
    });
    expect(await send(refund('refund.failed', paymentIntent, 're_1', 300, 'failed'))).toMatchObject({
      body: { outcome: 'unchanged' },
    });
    expect(await receiptsDeliveredTo(donor)).toHaveLength(5);
  });
});

describe('the donor’s address, personal data', () => {
  it('is sealed in the log, in the export of the account that verified it, and erased with that account', async () => {
    const cause = await charityAndFundraiser({ taxId: '12-3456789' });
    const email = uniqueEmail('erin');
    const session = await signedUpAndVerified(email);
    const uid = session.user.uid;
    const paymentIntent = newPayment();
    // Checkout's copy of the address may be cased otherwise: it is the same address.
    expect(await send(paid(cause, 1500, { paymentIntent, email: email.toUpperCase() }))).toMatchObject({
      body: { outcome: 'confirmed' },
    });
    await mailsTo(email, /^Receipt for/);

    const ledger = processorDonationStreamName(paymentIntent);
    const addressed = async () => {
      const stored = (await server.embedded.eventStore.readStream(ledger)).find(
        ({ type }) => type === 'DonationReceiptAddressed',
      )!;
      const [revealed] = await server.embedded.personalData.revealEvents([stored]);
      return { sealed: stored.data as { email: string }, revealed: revealed!.data as { email: string | null } };
    };
    const before = await addressed();
    expect(before.sealed.email).toMatch(/^pd1\.donor-/);
    expect(before.revealed.email).toBe(email.toUpperCase());
    // The log's own bytes, the write-ahead log's too, where the newest events are.
    const log = await Promise.all(
      ['events.sqlite', 'events.sqlite-wal'].map((name) =>
        readFile(path.join(server.dataDir, name)).catch(() => Buffer.alloc(0)),
      ),
    );
    expect(Buffer.concat(log).toString('latin1')).toContain(paymentIntent);
    expect(Buffer.concat(log).toString('latin1').toLowerCase()).not.toContain(email.toLowerCase());

    const exported = await server.api('GET', `/api/user/${uid}/export`, as(session));
    expect(exported.status).toBe(200);
    const data = personalDataExport.parse(exported.body);
    expect(data.donations).toEqual([
      {
        id: paymentIntent,
        email: email.toUpperCase(),
        fundraiserId: cause.fundraiserId,
        charityId: cause.charityId,
        amount: 15,
        refunded: 0,
        live: true,
        paidAt: expect.any(String),
      },
    ]);
    expect(data.events.filter(({ stream }) => stream === ledger).map(({ type }) => type)).toEqual([
      'DonationConfirmed',
      'DonationReceiptAddressed',
    ]);

    const closed = await server.api('DELETE', `/api/user/${uid}`, {
      ...as(session),
      body: { password: 'correct horse' },
    });
    expect(closed.status).toBe(204);
    expect((await addressed()).revealed.email).toBeNull();

    // A refund after the erasure counts, and mails nobody.
    const receiptsBefore = await server.embedded.eventStore.readStream(donationReceiptStreamName(paymentIntent));
    expect(await send(refund('refund.created', paymentIntent, 're_9', 500, 'pending'))).toMatchObject({
      body: { outcome: 'refunded' },
    });
    expect(await server.embedded.eventStore.readStream(donationReceiptStreamName(paymentIntent))).toEqual(
      receiptsBefore,
    );
    expect(await receiptsDeliveredTo(email)).toHaveLength(1);
  });

  it('is in no export of an account that never verified it', async () => {
    const cause = await charityAndFundraiser({});
    const email = uniqueEmail('ulla');
    const session = await signUp(server.api, { email });
    expect(await send(paid(cause, 800, { paymentIntent: newPayment(), email }))).toMatchObject({
      body: { outcome: 'confirmed' },
    });
    const exported = await server.api('GET', `/api/user/${session.user.uid}/export`, as(session));
    expect(personalDataExport.parse(exported.body).donations).toEqual([]);
  });
});

describeWithStripeMock('the receipt of a checkout, as Stripe shapes its session (stripe-mock)', (stripeMock) => {
  let proxy: Awaited<ReturnType<typeof startRecordingProxy>>;
  let shop: TestServer;

  beforeAll(async () => {
    proxy = await startRecordingProxy(stripeMock.url);
    shop = await startTestServer({
      env: {
        SMTP_URL: smtp.url,
        STRIPE_SECRET_KEY: SECRET_KEY,
        STRIPE_PUBLISHABLE_KEY: 'pk_test_receipts',
        STRIPE_WEBHOOK_SECRET: SECRET,
        STRIPE_API_URL: proxy.url,
      },
    });
  });
  afterAll(async () => {
    await shop?.stop();
    await proxy?.close();
  });

  it("goes to the address Checkout collected, read where Stripe's Checkout Session object has it", async () => {
    const fundraiser = await createFundraiser(shop.api, asUser(`owner-${randomUUID()}`));
    const started = await callOperation(shop.api, 'createCheckout', {
      params: { id: fundraiser.id },
      body: { amount: 12.5 },
      headers: { 'idempotency-key': `card-${randomUUID()}` },
    });
    expect(started.status).toBe(200);
    const form = proxy.seen.at(-1)!.form;
    const metadata = Object.fromEntries(
      [...form].flatMap(([name, value]) => {
        const key = /^metadata\[(\w+)\]$/.exec(name)?.[1];
        return key ? [[key, value]] : [];
      }),
    );

    // The session as Stripe's API gives it back (stripe-mock's fixture), completed and paid with
    // what the product sent; its customer_details are Stripe's own.
    const mock = new URL(stripeMock.url);
    const api = new Stripe('sk_test_receipts', { host: mock.hostname, port: Number(mock.port), protocol: 'http' });
    const session = await api.checkout.sessions.retrieve('cs_test_receipts');
    const donor = session.customer_details?.email;
    expect(donor).toEqual(expect.any(String));
    const paymentIntent = newPayment();
    const completed = event('checkout.session.completed', {
      ...session,
      payment_status: 'paid',
      amount_total: 1250,
      currency: 'usd',
      payment_intent: paymentIntent,
      metadata,
    });
    const body = JSON.stringify(completed);
    const delivered = await shop.api('POST', '/api/webhooks/stripe', {
      rawBody: body,
      headers: { 'stripe-signature': stripe.webhooks.generateTestHeaderString({ payload: body, secret: SECRET }) },
    });
    expect(delivered).toMatchObject({ status: 200, body: { outcome: 'confirmed' } });
    const [receipt] = await mailsTo(donor!, /^Receipt for your donation to /);
    expect(receipt!.text).toContain('Amount: $12.50');
    expect(receipt!.text).toContain(`Payment id: ${paymentIntent}`);
    expect(receipt!.text).toContain(NO_GOODS);
  });
});
