import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { eventMetadata, fundraiserStats, STRIPE_WEBHOOK_MAX_BYTES } from '@qrshirt/contracts';
import { donationReportStreamName, processorDonationStreamName, reportIdFor } from '@qrshirt/core';
import { createFundraiser, seededRandom, startRecordingProxy, WAIT_MS } from '@qrshirt/test-support';
import { describeWithStripeMock } from '@qrshirt/test-support/vitest';
import { pino } from 'pino';
import Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createCheckoutSigner } from '../src/donations/checkout-signature';
import { asUser, startTestServer, type TestServer, userToken } from './support/test-server';

/*
 * Stripe's webhook against the real embedded process (SQLite event store, the projectors), each
 * event signed by the official package's generateTestHeaderString with the endpoint's secret:
 * what moves the fundraiser's figures, what changes nothing, and what is refused.
 */

const SECRET = 'whsec_stripe_webhooks_test';
const SECRET_KEY = 'sk_test_hooks';
// What the product signs its own Checkout Sessions' metadata with.
const signer = createCheckoutSigner(SECRET_KEY);
const CHARITY = 'charity-of-the-checkout';
// Only its webhooks helpers are used: they make and check signatures, and call no API.
const stripe = new Stripe('sk_test_signing_only');

let server: TestServer;
const logLines: Record<string, unknown>[] = [];

beforeAll(async () => {
  const log = pino(
    { level: 'warn' },
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString().split('\n').filter(Boolean)) logLines.push(JSON.parse(line));
        done();
      },
    }),
  );
  server = await startTestServer({
    log,
    env: { STRIPE_SECRET_KEY: SECRET_KEY, STRIPE_PUBLISHABLE_KEY: 'pk_test_hooks', STRIPE_WEBHOOK_SECRET: SECRET },
  });
});
afterAll(() => server.stop());

interface StripeEvent {
  id: string;
  type: string;
  created: number;
  livemode: boolean;
  account?: string;
  data: { object: Record<string, unknown> };
}

const now = () => Math.floor(Date.now() / 1000);

const event = (type: string, object: Record<string, unknown>, livemode = true, created = now()): StripeEvent => ({
  id: `evt_${randomUUID().replaceAll('-', '')}`,
  type,
  created,
  livemode,
  data: { object },
});

interface Checkout {
  paymentIntent?: string;
  reportId?: string;
  paid?: boolean;
  livemode?: boolean;
  charityId?: string;
  /** The metadata as sent, signed or not. */
  metadata?: Record<string, string>;
}

/**
 * A paid Checkout Session for `cents`, as the product created it: its fundraiser, report and
 * charity in the metadata, signed.
 */
const completed = (
  fundraiserId: string,
  cents: number,
  {
    paymentIntent = `pi_${randomUUID()}`,
    reportId = randomUUID(),
    paid = true,
    livemode = true,
    charityId = CHARITY,
    metadata,
  } = {} as Checkout,
  type = 'checkout.session.completed',
) =>
  event(
    type,
    {
      id: `cs_test_${randomUUID()}`,
      object: 'checkout.session',
      amount_total: cents,
      currency: 'usd',
      payment_intent: paymentIntent,
      payment_status: paid ? 'paid' : 'unpaid',
      client_reference_id: fundraiserId,
      metadata: metadata ?? {
        fundraiserId,
        reportId,
        charityId,
        signature: signer.sign({ fundraiserId, reportId, charityId, amountCents: cents }),
      },
    },
    livemode,
  );

const refunded = (paymentIntent: string, amountRefunded: number) =>
  event('charge.refunded', {
    id: `ch_${randomUUID()}`,
    object: 'charge',
    payment_intent: paymentIntent,
    amount_refunded: amountRefunded,
    currency: 'usd',
  });

/** A refund event (refund.created, refund.failed, charge.refund.updated…) of one named refund. */
const refund = (type: string, paymentIntent: string, refundId: string, amount: number, status: string) =>
  event(type, { id: refundId, object: 'refund', payment_intent: paymentIntent, amount, status, created: now() });

/** A balance transaction as a dispute carries it (its withdrawal, its reinstatement). */
const disputeBalance = (amount: number, fee: number) => ({
  id: `txn_${randomUUID().replaceAll('-', '')}`,
  object: 'balance_transaction',
  amount,
  fee,
  net: amount - fee,
  created: now(),
  type: 'adjustment',
});

/** A dispute event (charge.dispute.funds_withdrawn, .funds_reinstated, .closed…). */
const disputed = (
  type: string,
  paymentIntent: string,
  disputeId: string,
  amount: number,
  status = 'needs_response',
  balanceTransactions: object[] = [],
) =>
  event(type, {
    id: disputeId,
    object: 'dispute',
    payment_intent: paymentIntent,
    amount,
    status,
    currency: 'usd',
    balance_transactions: balanceTransactions,
  });

const fundsWithdrawn = (paymentIntent: string, amount: number, disputeId = `dp_${randomUUID()}`) =>
  disputed('charge.dispute.funds_withdrawn', paymentIntent, disputeId, amount);

/** Posts `body` with this Stripe-Signature (by default the package's, over `body`, now). */
const post = (body: string, signature = stripe.webhooks.generateTestHeaderString({ payload: body, secret: SECRET })) =>
  server.api('POST', '/api/webhooks/stripe', { rawBody: body, headers: { 'stripe-signature': signature } });

const send = (sent: StripeEvent) => post(JSON.stringify(sent));

async function newFundraiser() {
  const owner = `owner-${randomUUID()}`;
  const { id } = await createFundraiser(server.api, asUser(owner));
  return { id, owner };
}

/**
 * The checkout of `cents` for the report the page files under `key`, recorded as POST /checkout
 * records it once Stripe made the session (stripe-checkout.test.ts takes that route through
 * stripe-mock): while Stripe takes donations, only such a report awaits confirmation.
 */
async function checkedOut(fundraiserId: string, key: string, cents: number): Promise<string> {
  const reportId = reportIdFor(fundraiserId, key);
  await server.embedded.eventStore.appendToStream(donationReportStreamName(reportId), [
    {
      type: 'DonationCheckoutCreated',
      data: {
        reportId,
        fundraiserId,
        amountCents: cents,
        sessionId: `cs_test_${randomUUID()}`,
        at: new Date().toISOString(),
      },
      metadata: eventMetadata('DonationCheckoutCreated'),
    },
  ]);
  return reportId;
}

/** The page's report of a paid checkout, under the checkout's key. */
const report = (fundraiserId: string, key: string, amount: number) =>
  server.api('POST', `/api/fundraisers/${fundraiserId}/donate`, {
    body: { amount },
    headers: { 'idempotency-key': key },
  });

async function statsOf({ id, owner }: { id: string; owner: string }) {
  await server.embedded.projectionsCaughtUp(WAIT_MS);
  const answer = await server.api('GET', `/api/fundraisers/${id}/stats`, { token: userToken(owner) });
  expect(answer.status).toBe(200);
  return fundraiserStats.parse(answer.body);
}

describe('POST /api/webhooks/stripe: what counts', () => {
  it('confirms a paid checkout.session.completed as raised, and settles the report the page made with the same key', async () => {
    const fundraiser = await newFundraiser();
    const key = `card-${randomUUID()}`;
    await checkedOut(fundraiser.id, key, 1250);
    const reported = await report(fundraiser.id, key, 12.5);
    expect(reported.status).toBe(201);
    expect(await statsOf(fundraiser)).toMatchObject({ donations: 0, amountRaised: 0, amountReported: 12.5 });

    const paymentIntent = `pi_${randomUUID()}`;
    const answer = await send(
      completed(fundraiser.id, 1250, { paymentIntent, reportId: reportIdFor(fundraiser.id, key) }),
    );
    expect(answer).toMatchObject({ status: 200, body: { outcome: 'confirmed' } });
    expect(await statsOf(fundraiser)).toMatchObject({ donations: 1, amountRaised: 12.5, amountReported: 0 });
    // The donation is the PaymentIntent's.
    const [confirmed] = await server.embedded.eventStore.readStream(processorDonationStreamName(paymentIntent));
    expect(confirmed).toMatchObject({ type: 'DonationConfirmed', data: { amountCents: 1250, live: true } });
  });

  it('waits for checkout.session.async_payment_succeeded when the session completed unpaid', async () => {
    const fundraiser = await newFundraiser();
    const paymentIntent = `pi_${randomUUID()}`;
    expect(await send(completed(fundraiser.id, 4000, { paymentIntent, paid: false }))).toMatchObject({
      status: 200,
      body: { outcome: 'ignored' },
    });
    expect(await statsOf(fundraiser)).toMatchObject({ donations: 0, amountRaised: 0 });

    const succeeded = completed(fundraiser.id, 4000, { paymentIntent }, 'checkout.session.async_payment_succeeded');
    expect(await send(succeeded)).toMatchObject({ status: 200, body: { outcome: 'confirmed' } });
    expect(await statsOf(fundraiser)).toMatchObject({ donations: 1, amountRaised: 40 });
  });

  it('records whether the money is live from the event: livemode false is test money', async () => {
    const fundraiser = await newFundraiser();
    const paymentIntent = `pi_${randomUUID()}`;
    expect(await send(completed(fundraiser.id, 700, { paymentIntent, livemode: false }))).toMatchObject({
      status: 200,
      body: { outcome: 'confirmed' },
    });
    const [confirmed] = await server.embedded.eventStore.readStream(processorDonationStreamName(paymentIntent));
    expect(confirmed).toMatchObject({ type: 'DonationConfirmed', data: { amountCents: 700, live: false } });
  });

  it('changes nothing for an event id seen before, whatever it says now', async () => {
    const fundraiser = await newFundraiser();
    const first = completed(fundraiser.id, 500);
    expect(await send(first)).toMatchObject({ status: 200, body: { outcome: 'confirmed' } });
    const head = await server.embedded.eventStore.headPosition();

    const again = completed(fundraiser.id, 90_000);
    expect(await send({ ...again, id: first.id })).toMatchObject({ status: 200, body: { outcome: 'unchanged' } });
    expect(await send(first)).toMatchObject({ status: 200, body: { outcome: 'unchanged' } });
    expect(await server.embedded.eventStore.headPosition()).toBe(head);
    expect(await statsOf(fundraiser)).toMatchObject({ donations: 1, amountRaised: 5 });
  });

  it('counts a PaymentIntent once under two event ids', async () => {
    const fundraiser = await newFundraiser();
    const paymentIntent = `pi_${randomUUID()}`;
    expect(await send(completed(fundraiser.id, 2500, { paymentIntent }))).toMatchObject({
      body: { outcome: 'confirmed' },
    });
    const resent = completed(fundraiser.id, 2500, { paymentIntent }, 'checkout.session.async_payment_succeeded');
    expect(await send(resent)).toMatchObject({ status: 200, body: { outcome: 'unchanged' } });
    expect(await send(completed(fundraiser.id, 2500, { paymentIntent }))).toMatchObject({
      status: 200,
      body: { outcome: 'unchanged' },
    });
    expect(await statsOf(fundraiser)).toMatchObject({ donations: 1, amountRaised: 25 });
  });
});

describe('POST /api/webhooks/stripe: reports that await confirmation', () => {
  it('counts only a report a checkout of the product backs, Stripe being the processor here', async () => {
    const fundraiser = await newFundraiser();
    const key = `card-${randomUUID()}`;
    await checkedOut(fundraiser.id, key, 2000);
    expect((await report(fundraiser.id, key, 20)).status).toBe(201);
    // Anyone's word: recorded, and settled if a processor names it, but awaiting nothing.
    expect((await report(fundraiser.id, `forged-${randomUUID()}`, 900)).status).toBe(201);
    expect((await report(fundraiser.id, `forged-${randomUUID()}`, 900)).status).toBe(201);
    expect(await statsOf(fundraiser)).toMatchObject({ amountReported: 20 });
    // The checkout's key with another amount is not the payment it was made for.
    expect(await report(fundraiser.id, key, 25)).toMatchObject({
      status: 409,
      body: { error: 'Idempotency-Key was already used with a different amount' },
    });
  });

  it('drops the report of a session whose delayed payment failed, once', async () => {
    const fundraiser = await newFundraiser();
    const key = `card-${randomUUID()}`;
    const reportId = await checkedOut(fundraiser.id, key, 4000);
    await report(fundraiser.id, key, 40);
    // A bank debit: the session completes unpaid, then its payment fails.
    expect(await send(completed(fundraiser.id, 4000, { reportId, paid: false }))).toMatchObject({
      body: { outcome: 'ignored' },
    });
    expect(await statsOf(fundraiser)).toMatchObject({ amountReported: 40 });
    const failed = completed(fundraiser.id, 4000, { reportId, paid: false }, 'checkout.session.async_payment_failed');
    expect(await send(failed)).toMatchObject({ status: 200, body: { outcome: 'dropped' } });
    expect(await statsOf(fundraiser)).toMatchObject({ donations: 0, amountRaised: 0, amountReported: 0 });
    const [dropped] = (await server.embedded.eventStore.readStream(donationReportStreamName(reportId))).slice(-1);
    expect(dropped).toMatchObject({
      type: 'DonationReportDropped',
      data: { reason: 'payment_failed', pendingCents: 4000 },
    });
    expect(await send({ ...failed, id: `${failed.id}_again` })).toMatchObject({ body: { outcome: 'unchanged' } });
  });

  it('drops the report of a session that expired before the page could report it', async () => {
    const fundraiser = await newFundraiser();
    const key = `card-${randomUUID()}`;
    const reportId = await checkedOut(fundraiser.id, key, 1500);
    const expired = completed(fundraiser.id, 1500, { reportId, paid: false }, 'checkout.session.expired');
    expect(await send(expired)).toMatchObject({ status: 200, body: { outcome: 'dropped' } });
    expect((await report(fundraiser.id, key, 15)).status).toBe(201);
    expect(await statsOf(fundraiser)).toMatchObject({ amountReported: 0 });
  });

  it('drops nothing for a session the product did not sign', async () => {
    const fundraiser = await newFundraiser();
    const key = `card-${randomUUID()}`;
    const reportId = await checkedOut(fundraiser.id, key, 1500);
    await report(fundraiser.id, key, 15);
    const head = await server.embedded.eventStore.headPosition();
    const metadata = { fundraiserId: fundraiser.id, reportId, charityId: CHARITY };
    for (const type of ['checkout.session.expired', 'checkout.session.async_payment_failed']) {
      expect(await send(completed(fundraiser.id, 1500, { metadata, paid: false }, type))).toMatchObject({
        body: { outcome: 'ignored' },
      });
    }
    expect(await server.embedded.eventStore.headPosition()).toBe(head);
    expect(await statsOf(fundraiser)).toMatchObject({ amountReported: 15 });
  });
});

describe('POST /api/webhooks/stripe: refunds and disputes', () => {
  it("subtracts two partial refunds then a full one by Stripe's running total: the donation exactly once", async () => {
    const fundraiser = await newFundraiser();
    expect((await send(completed(fundraiser.id, 2000))).body.outcome).toBe('confirmed');
    const paymentIntent = `pi_${randomUUID()}`;
    expect((await send(completed(fundraiser.id, 1250, { paymentIntent }))).body.outcome).toBe('confirmed');
    expect(await statsOf(fundraiser)).toMatchObject({ donations: 2, amountRaised: 32.5 });

    expect(await send(refunded(paymentIntent, 300))).toMatchObject({ status: 200, body: { outcome: 'refunded' } });
    expect(await statsOf(fundraiser)).toMatchObject({ donations: 2, amountRaised: 29.5 });
    const second = refunded(paymentIntent, 500);
    expect(await send(second)).toMatchObject({ status: 200, body: { outcome: 'refunded' } });
    expect(await statsOf(fundraiser)).toMatchObject({ donations: 2, amountRaised: 27.5 });
    // The same total again under another event id: nothing new was refunded.
    expect(await send(refunded(paymentIntent, 500))).toMatchObject({ status: 200, body: { outcome: 'unchanged' } });
    expect(await send(second)).toMatchObject({ status: 200, body: { outcome: 'unchanged' } });

    expect(await send(refunded(paymentIntent, 1250))).toMatchObject({ status: 200, body: { outcome: 'refunded' } });
    const stats = await statsOf(fundraiser);
    expect(stats).toMatchObject({ donations: 1, amountRaised: 20 });
    expect(stats.daily).toEqual([expect.objectContaining({ donations: 1, amountRaised: 20 })]);
    expect(await send(refunded(paymentIntent, 1250))).toMatchObject({ body: { outcome: 'unchanged' } });
    expect(await statsOf(fundraiser)).toMatchObject({ donations: 1, amountRaised: 20 });
  });

  it("subtracts a dispute's withdrawn funds, once, never more than remains", async () => {
    const fundraiser = await newFundraiser();
    const paymentIntent = `pi_${randomUUID()}`;
    await send(completed(fundraiser.id, 1000, { paymentIntent }));

    const dispute = fundsWithdrawn(paymentIntent, 400);
    expect(await send(dispute)).toMatchObject({ status: 200, body: { outcome: 'refunded' } });
    expect(await statsOf(fundraiser)).toMatchObject({ donations: 1, amountRaised: 6 });
    // The same dispute under another event id.
    const disputeId = dispute.data.object.id as string;
    expect(await send(fundsWithdrawn(paymentIntent, 400, disputeId))).toMatchObject({
      body: { outcome: 'unchanged' },
    });

    expect(await send(fundsWithdrawn(paymentIntent, 5000))).toMatchObject({ body: { outcome: 'refunded' } });
    expect(await statsOf(fundraiser)).toMatchObject({ donations: 0, amountRaised: 0 });
  });

  it('books the dispute fee its balance transactions carry, beside the money raised, once', async () => {
    const fundraiser = await newFundraiser();
    const paymentIntent = `pi_${randomUUID()}`;
    await send(completed(fundraiser.id, 5000, { paymentIntent }));
    const withdrawal = disputeBalance(-1500, 1500);
    const withdrawn = disputed('charge.dispute.funds_withdrawn', paymentIntent, 'dp_fee', 1500, 'needs_response', [
      withdrawal,
    ]);
    expect(await send(withdrawn)).toMatchObject({ status: 200, body: { outcome: 'refunded' } });
    // Reinstated: the same withdrawal again, and its reinstatement, which charged nothing.
    const reinstated = disputed('charge.dispute.funds_reinstated', paymentIntent, 'dp_fee', 1500, 'won', [
      withdrawal,
      disputeBalance(1500, 0),
    ]);
    expect(await send(reinstated)).toMatchObject({ status: 200, body: { outcome: 'restored' } });
    const fees = (await server.embedded.eventStore.readStream(processorDonationStreamName(paymentIntent))).filter(
      ({ type }) => type === 'DonationFeeCharged',
    );
    expect(fees.map(({ data }) => data)).toEqual([
      expect.objectContaining({
        balanceTransactionId: withdrawal.id,
        to: 'processor',
        amountCents: 1500,
        charityId: CHARITY,
        live: true,
        at: new Date(withdrawal.created * 1000).toISOString(),
      }),
    ]);
    // The dispute was won: what was raised is whole again; the fee is a figure of its own.
    expect(await statsOf(fundraiser)).toMatchObject({ donations: 1, amountRaised: 50 });
  });
});

describe('POST /api/webhooks/stripe: nothing to do, answered 200 so that Stripe stops', () => {
  it('changes nothing for a type that moves no money', async () => {
    const fundraiser = await newFundraiser();
    const head = await server.embedded.eventStore.headPosition();
    const other = event('payment_intent.created', { id: `pi_${randomUUID()}`, object: 'payment_intent', amount: 500 });
    expect(await send(other)).toMatchObject({ status: 200, body: { outcome: 'ignored' } });
    expect(await server.embedded.eventStore.headPosition()).toBe(head);
    expect(await statsOf(fundraiser)).toMatchObject({ donations: 0, amountRaised: 0 });
  });

  it('logs a payment for an unknown fundraiser, and records nothing', async () => {
    const head = await server.embedded.eventStore.headPosition();
    const paymentIntent = `pi_${randomUUID()}`;
    expect(await send(completed('no-such-fundraiser', 500, { paymentIntent }))).toMatchObject({
      status: 200,
      body: { outcome: 'ignored' },
    });
    expect(await server.embedded.eventStore.headPosition()).toBe(head);
    expect(logLines).toContainEqual(
      expect.objectContaining({
        donationId: paymentIntent,
        fundraiserId: 'no-such-fundraiser',
        msg: expect.stringMatching(/Fundraiser not found/),
      }),
    );
  });

  it('logs a payment of an amount no donation can be ($0 after a discount, over $1,000,000), and records nothing', async () => {
    const fundraiser = await newFundraiser();
    const head = await server.embedded.eventStore.headPosition();
    for (const cents of [0, 100_000_001]) {
      const paymentIntent = `pi_${randomUUID()}`;
      expect(await send(completed(fundraiser.id, cents, { paymentIntent }))).toMatchObject({
        status: 200,
        body: { outcome: 'ignored' },
      });
      expect(logLines).toContainEqual(
        expect.objectContaining({ donationId: paymentIntent, msg: expect.stringMatching(/amount must be/) }),
      );
    }
    expect(await server.embedded.eventStore.headPosition()).toBe(head);
    expect(await statsOf(fundraiser)).toMatchObject({ donations: 0, amountRaised: 0 });
  });

  it('logs a Checkout Session the product did not create, and counts nothing', async () => {
    const fundraiser = await newFundraiser();
    const head = await server.embedded.eventStore.headPosition();
    const reportId = randomUUID();
    const signed = { fundraiserId: fundraiser.id, reportId, charityId: CHARITY };
    const foreign: Record<string, string>[] = [
      // A Payment Link or another integration naming our fundraiser, unsigned.
      { fundraiserId: fundraiser.id, reportId },
      // Signed over another amount than the session's, by another key, or not at all.
      { ...signed, signature: signer.sign({ ...signed, amountCents: 500 }) },
      { ...signed, signature: createCheckoutSigner('sk_test_staging').sign({ ...signed, amountCents: 70_000 }) },
      { ...signed, signature: 'not base64 at all!' },
    ];
    for (const metadata of foreign) {
      expect(await send(completed(fundraiser.id, 70_000, { metadata }))).toMatchObject({
        status: 200,
        body: { outcome: 'ignored' },
      });
    }
    expect(logLines).toContainEqual(
      expect.objectContaining({ msg: 'Stripe webhook ignored: a Checkout Session the product did not create' }),
    );
    expect(await server.embedded.eventStore.headPosition()).toBe(head);
    expect(await statsOf(fundraiser)).toMatchObject({ donations: 0, amountRaised: 0 });
  });

  it("logs a connected account's event, and counts nothing", async () => {
    const fundraiser = await newFundraiser();
    const head = await server.embedded.eventStore.headPosition();
    const theirs = { ...completed(fundraiser.id, 900), account: 'acct_1Charity' };
    expect(await send(theirs)).toMatchObject({ status: 200, body: { outcome: 'ignored' } });
    expect(logLines).toContainEqual(
      expect.objectContaining({ msg: 'Stripe webhook ignored: an event of the connected account acct_1Charity' }),
    );
    expect(await server.embedded.eventStore.headPosition()).toBe(head);
    expect(await statsOf(fundraiser)).toMatchObject({ donations: 0, amountRaised: 0 });
  });
});

describe('POST /api/webhooks/stripe: a ledger, whatever order Stripe delivers in', () => {
  it('keeps a refund and a dispute of a payment not seen yet, and applies them when it arrives', async () => {
    const fundraiser = await newFundraiser();
    const paymentIntent = `pi_${randomUUID()}`;
    expect(await send(refunded(paymentIntent, 2000))).toMatchObject({ status: 200, body: { outcome: 'recorded' } });
    expect(await send(fundsWithdrawn(paymentIntent, 1500))).toMatchObject({
      status: 200,
      body: { outcome: 'recorded' },
    });
    expect(await statsOf(fundraiser)).toMatchObject({ donations: 0, amountRaised: 0 });
    expect(await send(completed(fundraiser.id, 5000, { paymentIntent }))).toMatchObject({
      body: { outcome: 'confirmed' },
    });
    expect(await statsOf(fundraiser)).toMatchObject({ donations: 1, amountRaised: 15 });
  });

  it('gives back a failed refund and a won dispute', async () => {
    const fundraiser = await newFundraiser();
    const paymentIntent = `pi_${randomUUID()}`;
    await send(completed(fundraiser.id, 5000, { paymentIntent }));
    expect(await send(refund('refund.created', paymentIntent, 're_1', 1000, 'pending'))).toMatchObject({
      body: { outcome: 'refunded' },
    });
    expect(await send(refund('refund.failed', paymentIntent, 're_1', 1000, 'failed'))).toMatchObject({
      body: { outcome: 'restored' },
    });
    expect(await statsOf(fundraiser)).toMatchObject({ donations: 1, amountRaised: 50 });
    expect(await send(disputed('charge.dispute.funds_withdrawn', paymentIntent, 'dp_1', 5000))).toMatchObject({
      body: { outcome: 'refunded' },
    });
    expect(await statsOf(fundraiser)).toMatchObject({ donations: 0, amountRaised: 0 });
    expect(await send(disputed('charge.dispute.closed', paymentIntent, 'dp_1', 5000, 'won'))).toMatchObject({
      body: { outcome: 'restored' },
    });
    expect(await statsOf(fundraiser)).toMatchObject({ donations: 1, amountRaised: 50 });
  });

  it('ends at the figures Stripe counts, in any delivery order', async () => {
    // $60 paid; $20 refunded; a $15 dispute withdrawn then reinstated; a $5 refund that failed:
    // Stripe's balance of these is 60 - 20 - 15 + 15 - 5 + 5 = $40.
    const scenario = (paymentIntent: string, fundraiserId: string) => [
      completed(fundraiserId, 6000, { paymentIntent }),
      refund('refund.created', paymentIntent, `re_a_${paymentIntent}`, 2000, 'succeeded'),
      refunded(paymentIntent, 2000),
      disputed('charge.dispute.created', paymentIntent, `dp_${paymentIntent}`, 1500),
      disputed('charge.dispute.funds_withdrawn', paymentIntent, `dp_${paymentIntent}`, 1500),
      disputed('charge.dispute.funds_reinstated', paymentIntent, `dp_${paymentIntent}`, 1500, 'won'),
      refund('refund.created', paymentIntent, `re_b_${paymentIntent}`, 500, 'pending'),
      refund('charge.refund.updated', paymentIntent, `re_b_${paymentIntent}`, 500, 'failed'),
    ];
    const random = seededShuffle(42);
    const orders = [(events: StripeEvent[]) => events, (events: StripeEvent[]) => [...events].reverse()];
    for (let i = 0; i < 6; i++) orders.push(random);
    for (const order of orders) {
      const fundraiser = await newFundraiser();
      const events = order(scenario(`pi_${randomUUID()}`, fundraiser.id));
      // Each delivered twice, as Stripe may, the second time as another event.
      for (const sent of [...events, ...events.map((again) => ({ ...again, id: `${again.id}_again` }))]) {
        expect((await send(sent)).status).toBe(200);
      }
      expect(await statsOf(fundraiser), events.map(({ type }) => type).join(' ')).toMatchObject({
        donations: 1,
        amountRaised: 40,
      });
    }
  });
});

/** A shuffle from a fixed seed, so that a failing order comes again. */
function seededShuffle(seed: number) {
  const random = seededRandom(seed);
  return <T>(items: T[]): T[] => {
    const shuffled = [...items];
    for (let i = shuffled.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [shuffled[i], shuffled[j]] = [shuffled[j]!, shuffled[i]!];
    }
    return shuffled;
  };
}

describe('POST /api/webhooks/stripe: refused with 400, and nothing recorded', () => {
  let fundraiser: { id: string; owner: string };
  let body: string;

  beforeAll(async () => {
    fundraiser = await newFundraiser();
    body = JSON.stringify(completed(fundraiser.id, 5000));
  });

  async function refused(sent: string, signature: string | undefined) {
    const head = await server.embedded.eventStore.headPosition();
    const answer = await server.api('POST', '/api/webhooks/stripe', {
      rawBody: sent,
      headers: signature === undefined ? {} : { 'stripe-signature': signature },
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(400);
    expect(answer.headers.get('content-type')).toMatch(/application\/json/);
    expect(answer.body).toEqual({ error: expect.stringMatching(/^The Stripe signature was refused/) });
    expect(await server.embedded.eventStore.headPosition()).toBe(head);
    expect(await statsOf(fundraiser)).toMatchObject({ donations: 0, amountRaised: 0 });
  }

  it('for a signature made with another secret', async () => {
    await refused(body, stripe.webhooks.generateTestHeaderString({ payload: body, secret: 'whsec_someone_else' }));
  });

  it('for a stale signature, older than 300 seconds', async () => {
    const timestamp = Math.floor(Date.now() / 1000) - 301;
    await refused(body, stripe.webhooks.generateTestHeaderString({ payload: body, secret: SECRET, timestamp }));
  });

  it('for a signature dated more than 300 seconds ahead, which the package alone would take', async () => {
    // A minute beyond the limit: each second the test takes brings the date a second nearer.
    const timestamp = Math.floor(Date.now() / 1000) + 360;
    await refused(body, stripe.webhooks.generateTestHeaderString({ payload: body, secret: SECRET, timestamp }));
    // Read as the package reads the header: its last `t=` is the one signed.
    const ahead = stripe.webhooks.generateTestHeaderString({ payload: body, secret: SECRET, timestamp });
    await refused(body, `t=${Math.floor(Date.now() / 1000)},${ahead}`);
  });

  it('for a body changed after it was signed', async () => {
    const signature = stripe.webhooks.generateTestHeaderString({ payload: body, secret: SECRET });
    await refused(body.replace('"amount_total":5000', '"amount_total":500000'), signature);
  });

  it('for no signature at all', async () => {
    await refused(body, undefined);
  });

  it('but takes the same body, signed with the secret a little ahead of our clock, as clocks drift', async () => {
    const timestamp = Math.floor(Date.now() / 1000) + 240;
    const signature = stripe.webhooks.generateTestHeaderString({ payload: body, secret: SECRET, timestamp });
    expect(await post(body, signature)).toMatchObject({ status: 200, body: { outcome: 'confirmed' } });
    expect(await statsOf(fundraiser)).toMatchObject({ donations: 1, amountRaised: 50 });
  });
});

describe('POST /api/webhooks/stripe: the size of a delivery', () => {
  /** A signed Checkout Session event of exactly `bytes` bytes, padded in a metadata value. */
  function deliveryOf(bytes: number): string {
    const sent = completed(`f-${randomUUID()}`, 500, { metadata: { padding: '' } });
    const empty = JSON.stringify(sent).length;
    (sent.data.object.metadata as Record<string, string>).padding = 'x'.repeat(bytes - empty);
    const body = JSON.stringify(sent);
    expect(body).toHaveLength(bytes);
    return body;
  }

  it('takes one of 1 MiB, as large as Stripe makes them, and refuses more with 413', async () => {
    // Signed and read: a session the product did not sign, so answered and logged, not refused.
    expect(await post(deliveryOf(STRIPE_WEBHOOK_MAX_BYTES))).toMatchObject({
      status: 200,
      body: { outcome: 'ignored' },
    });
    const tooLarge = await post(deliveryOf(STRIPE_WEBHOOK_MAX_BYTES + 1));
    expect(tooLarge).toMatchObject({
      status: 413,
      body: { error: `The request body is too large: at most ${STRIPE_WEBHOOK_MAX_BYTES} bytes here` },
    });
  });

  it("leaves the other routes' limits as they were: the demo processor's is MAX_BODY_BYTES, 64 KiB", async () => {
    const answer = await server.api('POST', '/api/demo-processor/donations', {
      rawBody: deliveryOf(64 * 1024 + 1),
    });
    expect(answer).toMatchObject({
      status: 413,
      body: { error: 'The request body is too large: at most 65536 bytes here' },
    });
  });
});

it('answers 503 when Stripe is not configured', async () => {
  const plain = await startTestServer();
  try {
    const body = JSON.stringify(completed('any', 500));
    const answer = await plain.api('POST', '/api/webhooks/stripe', {
      rawBody: body,
      headers: { 'stripe-signature': stripe.webhooks.generateTestHeaderString({ payload: body, secret: SECRET }) },
    });
    expect(answer.status).toBe(503);
    expect(answer.body.error).toMatch(/Stripe is not configured/);
  } finally {
    await plain.stop();
  }
});

describeWithStripeMock(
  "POST /api/webhooks/stripe: a settled charge's fees, asked of Stripe (stripe-mock)",
  (stripeMock) => {
    let withStripe: TestServer;
    let proxy: Awaited<ReturnType<typeof startRecordingProxy>>;

    beforeAll(async () => {
      proxy = await startRecordingProxy(stripeMock.url);
      withStripe = await startTestServer({
        env: {
          STRIPE_SECRET_KEY: SECRET_KEY,
          STRIPE_PUBLISHABLE_KEY: 'pk_test_hooks',
          STRIPE_WEBHOOK_SECRET: SECRET,
          STRIPE_API_URL: proxy.url,
        },
      });
    });
    afterAll(async () => {
      await withStripe?.stop();
      await proxy?.close();
    });
    beforeEach(() => {
      proxy.seen.length = 0;
      proxy.answer = null;
    });

    const deliver = (sent: StripeEvent) => {
      const body = JSON.stringify(sent);
      const signature = stripe.webhooks.generateTestHeaderString({ payload: body, secret: SECRET });
      return withStripe.api('POST', '/api/webhooks/stripe', {
        rawBody: body,
        headers: { 'stripe-signature': signature },
      });
    };
    const ledgerOf = async (paymentIntent: string) =>
      (await withStripe.embedded.eventStore.readStream(processorDonationStreamName(paymentIntent))).map(
        ({ type, data }) => ({ type, data }) as { type: string; data: Record<string, unknown> },
      );

    /** What a webhook's charge says: its balance transaction named, not carried. */
    const chargeEvent = (type: string, paymentIntent: string, chargeId: string, balanceTransaction: string | null) =>
      event(type, {
        id: chargeId,
        object: 'charge',
        amount: 5000,
        currency: 'usd',
        payment_intent: paymentIntent,
        status: 'succeeded',
        paid: true,
        balance_transaction: balanceTransaction,
      });

    /** Stripe's answer for the charge with its balance transaction, application fee and transfer expanded. */
    const settledCharge = (paymentIntent: string, chargeId: string, created: number) => ({
      status: 200,
      body: {
        id: chargeId,
        object: 'charge',
        amount: 5000,
        currency: 'usd',
        payment_intent: paymentIntent,
        status: 'succeeded',
        balance_transaction: {
          id: `txn_ch_${chargeId}`,
          object: 'balance_transaction',
          amount: 5000,
          fee: 175,
          fee_details: [
            {
              amount: 175,
              application: null,
              currency: 'usd',
              description: 'Stripe processing fees',
              type: 'stripe_fee',
            },
          ],
          net: 4825,
          created,
          currency: 'usd',
          type: 'charge',
          source: chargeId,
        },
        application_fee: {
          id: `fee_${chargeId}`,
          object: 'application_fee',
          amount: 250,
          amount_refunded: 0,
          balance_transaction: `txn_fee_${chargeId}`,
          charge: chargeId,
          created: created + 1,
          currency: 'usd',
        },
        transfer: {
          id: `tr_${chargeId}`,
          object: 'transfer',
          amount: 5000,
          amount_reversed: 0,
          destination: 'acct_1Charity',
          created,
          currency: 'usd',
        },
      },
    });

    it("books Stripe's fee and the platform's, and records the transfer to the charity, from the charge Stripe describes", async () => {
      const { id } = await createFundraiser(withStripe.api, asUser(`owner-${randomUUID()}`));
      const paymentIntent = `pi_${randomUUID()}`;
      const chargeId = `ch_${randomUUID().replaceAll('-', '')}`;
      expect((await deliver(completed(id, 5000, { paymentIntent }))).body).toEqual({ outcome: 'confirmed' });
      const created = now() - 60;
      proxy.answer = settledCharge(paymentIntent, chargeId, created);

      const updated = chargeEvent('charge.updated', paymentIntent, chargeId, `txn_ch_${chargeId}`);
      expect(await deliver(updated)).toMatchObject({ status: 200, body: { outcome: 'recorded' } });
      // One call: the charge, with what its webhook names expanded.
      expect(proxy.seen).toHaveLength(1);
      const [asked] = proxy.seen;
      expect(asked!.method).toBe('GET');
      const url = new URL(asked!.path, 'http://stripe');
      expect(url.pathname).toBe(`/v1/charges/${chargeId}`);
      expect(
        [...url.searchParams]
          .filter(([key]) => key.startsWith('expand['))
          .map(([, value]) => value)
          .sort(),
      ).toEqual(['application_fee', 'balance_transaction', 'transfer']);

      const day = (seconds: number) => new Date(seconds * 1000).toISOString();
      const ledger = await ledgerOf(paymentIntent);
      expect(ledger.filter(({ type }) => type === 'DonationFeeCharged').map(({ data }) => data)).toEqual([
        expect.objectContaining({
          balanceTransactionId: `txn_ch_${chargeId}`,
          to: 'processor',
          amountCents: 175,
          at: day(created),
        }),
        expect.objectContaining({
          balanceTransactionId: `txn_fee_${chargeId}`,
          to: 'platform',
          amountCents: 250,
          at: day(created + 1),
        }),
      ]);
      expect(ledger).toContainEqual({
        type: 'DonationMovementRecorded',
        data: expect.objectContaining({
          movement: { kind: 'transfer', transferId: `tr_${chargeId}`, destination: 'acct_1Charity', amountCents: 5000 },
          movedAt: day(created),
        }),
      });
      // Money raised is what was paid: fees are figures of their own.
      expect(ledger.filter(({ type }) => type === 'DonationRefunded')).toEqual([]);

      // The same charge said again, as another event: nothing new in the ledger.
      expect(await deliver({ ...updated, id: `${updated.id}_again` })).toMatchObject({
        body: { outcome: 'unchanged' },
      });
      expect(await ledgerOf(paymentIntent)).toEqual(ledger);
    });

    it("takes what stripe-mock itself answers for a charge, as Stripe's own client reads it", async () => {
      const paymentIntent = `pi_${randomUUID()}`;
      const chargeId = `ch_${randomUUID().replaceAll('-', '')}`;
      const sent = chargeEvent('charge.succeeded', paymentIntent, chargeId, 'txn_named');
      expect(await deliver(sent)).toMatchObject({ status: 200, body: { outcome: 'recorded' } });
      const described = await new Stripe(SECRET_KEY, {
        host: new URL(stripeMock.url).hostname,
        port: Number(new URL(stripeMock.url).port),
        protocol: 'http',
      }).charges.retrieve(chargeId, { expand: ['balance_transaction', 'application_fee'] });
      const fee = described.application_fee as Stripe.ApplicationFee;
      // Kept for the payment until it arrives: the fixture's application fee, by its balance transaction.
      expect(await ledgerOf(paymentIntent)).toContainEqual({
        type: 'DonationMovementRecorded',
        data: expect.objectContaining({
          movement: {
            kind: 'fee',
            balanceTransactionId: fee.balance_transaction,
            to: 'platform',
            amountCents: fee.amount,
          },
        }),
      });
    });

    it('asks Stripe nothing while the charge has no balance transaction yet (asynchronous capture)', async () => {
      const paymentIntent = `pi_${randomUUID()}`;
      const head = await withStripe.embedded.eventStore.headPosition();
      expect(await deliver(chargeEvent('charge.succeeded', paymentIntent, `ch_${randomUUID()}`, null))).toMatchObject({
        status: 200,
        body: { outcome: 'ignored' },
      });
      expect(proxy.seen).toEqual([]);
      expect(await withStripe.embedded.eventStore.headPosition()).toBe(head);
    });

    it('answers 502 when Stripe fails to describe the charge, records nothing, and books it when Stripe delivers again', async () => {
      const { id } = await createFundraiser(withStripe.api, asUser(`owner-${randomUUID()}`));
      const paymentIntent = `pi_${randomUUID()}`;
      const chargeId = `ch_${randomUUID().replaceAll('-', '')}`;
      await deliver(completed(id, 5000, { paymentIntent }));
      const head = await withStripe.embedded.eventStore.headPosition();
      proxy.answer = { status: 500, body: { error: { type: 'api_error', message: 'Something went wrong' } } };
      const updated = chargeEvent('charge.updated', paymentIntent, chargeId, `txn_ch_${chargeId}`);
      const failed = await deliver(updated);
      expect(failed).toMatchObject({
        status: 502,
        body: { error: expect.stringMatching(/^Stripe did not describe the charge/) },
      });
      expect(await withStripe.embedded.eventStore.headPosition()).toBe(head);

      proxy.answer = settledCharge(paymentIntent, chargeId, now());
      expect(await deliver(updated)).toMatchObject({ status: 200, body: { outcome: 'recorded' } });
      expect((await ledgerOf(paymentIntent)).filter(({ type }) => type === 'DonationFeeCharged')).toHaveLength(2);
    });
  },
);
