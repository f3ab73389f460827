import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CHECKOUT_DOLLARS_AS_SENT, eventMetadata } from '@qrshirt/contracts';
import { donationReportStreamName, fundraiserStreamName, reportIdFor } from '@qrshirt/core';
import {
  callOperation,
  createFundraiser,
  freePort,
  solveProofOfWork,
  type StripeAnswer,
  startRecordingProxy,
  WAIT_MS,
} from '@qrshirt/test-support';
import { describeWithStripeMock } from '@qrshirt/test-support/vitest';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { createCheckoutSigner } from '../src/donations/checkout-signature';
import { STRIPE_MAX_NETWORK_RETRIES, STRIPE_TIMEOUT_MS } from '../src/donations/stripe-client';
import { PROOF_OF_WORK_MISSING, PROOF_OF_WORK_USED } from '../src/http/proof-of-work';
import { asUser, startTestServer, type TestServer, userToken } from './support/test-server';

/*
 * POST /api/fundraisers/{id}/checkout against the real gateway and Stripe's own stripe-mock,
 * through the official `stripe` package, by way of the recording proxy that keeps what reached
 * "Stripe" (and answers Stripe's refusals, which stripe-mock's fixtures never give).
 */

const stripeEnv = (apiUrl: string) => ({
  STRIPE_SECRET_KEY: 'sk_test_checkout',
  STRIPE_PUBLISHABLE_KEY: 'pk_test_checkout',
  STRIPE_WEBHOOK_SECRET: 'whsec_checkout',
  STRIPE_API_URL: apiUrl,
});

describeWithStripeMock('POST /api/fundraisers/{id}/checkout with Stripe (stripe-mock)', (stripeMock) => {
  let server: TestServer;
  let proxy: Awaited<ReturnType<typeof startRecordingProxy>>;

  beforeAll(async () => {
    proxy = await startRecordingProxy(stripeMock.url);
    server = await startTestServer({ env: stripeEnv(proxy.url) });
  });
  afterAll(async () => {
    await server?.stop();
    await proxy?.close();
  });
  beforeEach(() => {
    proxy.seen.length = 0;
    proxy.answer = null;
  });

  it('creates an embedded donation Checkout Session in cents, naming the fundraiser and its report', async () => {
    const fundraiser = await createFundraiser(server.api, asUser(`owner-${randomUUID()}`));
    const key = `card-${randomUUID()}`;

    const answer = await callOperation(server.api, 'createCheckout', {
      params: { id: fundraiser.id },
      body: { amount: 12.5 },
      headers: { 'idempotency-key': key },
    });

    expect(answer.status).toBe(200);
    // stripe-mock's Checkout Session fixture, with the secret install-stripe-mock.sh sets.
    expect(answer.body.clientSecret).toMatch(/^cs_test_\w+_secret_stripemock$/);
    expect(proxy.seen).toHaveLength(1);
    const [sent] = proxy.seen;
    expect(sent).toMatchObject({ method: 'POST', path: '/v1/checkout/sessions' });
    // Stripe's idempotency keys are one namespace for the account: the page's key, per fundraiser.
    expect(sent!.idempotencyKey).toBe(`${fundraiser.id}:${key}`);
    const reportId = reportIdFor(fundraiser.id, key);
    const form = Object.fromEntries(sent!.form);
    expect(form).toMatchObject({
      ui_mode: 'embedded_page',
      redirect_on_completion: 'never',
      mode: 'payment',
      submit_type: 'donate',
      'line_items[0][quantity]': '1',
      'line_items[0][price_data][currency]': 'usd',
      'line_items[0][price_data][unit_amount]': '1250',
      'metadata[fundraiserId]': fundraiser.id,
      'metadata[reportId]': reportId,
      'payment_intent_data[metadata][fundraiserId]': fundraiser.id,
      'payment_intent_data[metadata][reportId]': reportId,
      'metadata[charityId]': fundraiser.charityId,
      'payment_intent_data[metadata][charityId]': fundraiser.charityId,
      client_reference_id: fundraiser.id,
    });
    // Signed, so that only sessions the product made count when they complete.
    const signed = { fundraiserId: fundraiser.id, reportId, charityId: fundraiser.charityId, amountCents: 1250 };
    expect(createCheckoutSigner('sk_test_checkout').verify(signed, form['metadata[signature]']!)).toBe(true);
    expect(form['payment_intent_data[metadata][signature]']).toBe(form['metadata[signature]']);
    const charities = await server.api('GET', '/api/charities');
    const charity = (charities.body as { id: string; name: string }[]).find(({ id }) => id === fundraiser.charityId);
    expect(form['line_items[0][price_data][product_data][name]']).toBe(`Donation to ${charity!.name}`);
    expect(form['line_items[0][price_data][product_data][description]']).toContain(fundraiser.name);
  });

  it("records the checkout in its report's stream: the page's report under its key awaits confirmation, no other", async () => {
    const owner = `owner-${randomUUID()}`;
    const fundraiser = await createFundraiser(server.api, asUser(owner));
    const key = `card-${randomUUID()}`;
    const checkout = () =>
      callOperation(server.api, 'createCheckout', {
        params: { id: fundraiser.id },
        body: { amount: 12.5 },
        headers: { 'idempotency-key': key },
      });
    expect((await checkout()).status).toBe(200);
    // A retry gets the same session, and records nothing new.
    expect((await checkout()).status).toBe(200);
    const stream = await server.embedded.eventStore.readStream(
      donationReportStreamName(reportIdFor(fundraiser.id, key)),
    );
    expect(stream).toMatchObject([
      {
        type: 'DonationCheckoutCreated',
        data: {
          fundraiserId: fundraiser.id,
          charityId: fundraiser.charityId,
          amountCents: 1250,
          sessionId: expect.stringMatching(/^cs_test_/),
          live: false,
        },
      },
    ]);

    const donate = (idempotencyKey: string) =>
      callOperation(server.api, 'donate', {
        params: { id: fundraiser.id },
        body: { amount: 12.5 },
        headers: { 'idempotency-key': idempotencyKey },
      });
    expect((await donate(key)).status).toBe(201);
    expect((await donate(`no-checkout-${randomUUID()}`)).status).toBe(201);
    await server.embedded.projectionsCaughtUp(WAIT_MS);
    const stats = await server.api('GET', `/api/fundraisers/${fundraiser.id}/stats`, { token: userToken(owner) });
    expect(stats.body).toMatchObject({ amountRaised: 0, amountReported: 12.5 });
  });

  it("takes donate's amounts: text in dollars, rounded to the cent; a new report id without a key", async () => {
    const fundraiser = await createFundraiser(server.api, asUser(`owner-${randomUUID()}`));
    const answer = await server.api('POST', `/api/fundraisers/${fundraiser.id}/checkout`, {
      body: { amount: '"25.005"' },
    });
    expect(answer.status).toBe(200);
    const form = Object.fromEntries(proxy.seen[0]!.form);
    expect(form['line_items[0][price_data][unit_amount]']).toBe('2501');
    expect(proxy.seen[0]!.idempotencyKey).not.toContain(fundraiser.id);
    expect(form['metadata[reportId]']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('refuses an amount Stripe would not charge in USD with 400 saying the rule, and asks Stripe nothing', async () => {
    const fundraiser = await createFundraiser(server.api, asUser(`owner-${randomUUID()}`));
    for (const amount of [0.49, '0.494', 999_999.995, '1000000', 1_000_001, 0.001]) {
      const answer = await server.api('POST', `/api/fundraisers/${fundraiser.id}/checkout`, { body: { amount } });
      expect(answer, JSON.stringify(amount)).toMatchObject({
        status: 400,
        body: { error: 'amount must be from $0.50 to $999,999.99, what Stripe charges in USD' },
      });
    }
    for (const amount of [0, -5, 'ten']) {
      const answer = await server.api('POST', `/api/fundraisers/${fundraiser.id}/checkout`, { body: { amount } });
      expect(answer, JSON.stringify(amount)).toMatchObject({
        status: 400,
        body: { error: 'amount must be a number greater than 0' },
      });
    }
    expect(proxy.seen).toEqual([]);
  });

  it('takes the least and the most Stripe charges, as the document says', async () => {
    const fundraiser = await createFundraiser(server.api, asUser(`owner-${randomUUID()}`));
    const edges: [number | string, string][] = [
      [0.5, '50'],
      ['0.495', '50'],
      [999_999.99, '99999999'],
      ['"999999.994"', '99999999'],
    ];
    for (const [amount, cents] of edges) {
      proxy.seen.length = 0;
      const answer = await server.api('POST', `/api/fundraisers/${fundraiser.id}/checkout`, { body: { amount } });
      expect(answer.status, JSON.stringify(amount)).toBe(200);
      expect(Object.fromEntries(proxy.seen[0]!.form)['line_items[0][price_data][unit_amount]']).toBe(cents);
    }
    // The document's pattern for an amount as text draws the same line.
    const pattern = new RegExp(CHECKOUT_DOLLARS_AS_SENT);
    for (const text of ['0.495', '"999999.994"', '1', ' 25.005 ', '999998.999'])
      expect(pattern.test(text), text).toBe(true);
    for (const text of ['0.494', '0.49', '999999.995', '1000000', '0', 'ten'])
      expect(pattern.test(text), text).toBe(false);
  });

  it("answers Stripe's refusal of the request in its words: 400 when invalid, 422 when well-formed but refused", async () => {
    const fundraiser = await createFundraiser(server.api, asUser(`owner-${randomUUID()}`));
    // Stripe's own error bodies, as its API answers them.
    const refusals: [StripeAnswer, number][] = [
      [
        {
          status: 400,
          body: {
            error: {
              type: 'invalid_request_error',
              param: 'line_items[0][price_data][product_data][name]',
              message: 'Invalid string: too long',
            },
          },
        },
        400,
      ],
      [
        {
          status: 400,
          body: {
            error: {
              type: 'idempotency_error',
              message:
                'Keys for idempotent requests can only be used with the same parameters they were first used with.',
            },
          },
        },
        422,
      ],
      [
        {
          status: 402,
          body: { error: { type: 'card_error', code: 'card_declined', message: 'Your card was declined.' } },
        },
        422,
      ],
      [{ status: 404, body: { error: { type: 'invalid_request_error', message: 'No such price' } } }, 400],
    ];
    for (const [answer, status] of refusals) {
      proxy.answer = answer;
      proxy.seen.length = 0;
      const refused = await server.api('POST', `/api/fundraisers/${fundraiser.id}/checkout`, { body: { amount: 5 } });
      const { message } = (answer.body as { error: { message: string } }).error;
      expect(refused).toMatchObject({ status, body: { error: `Stripe refused the checkout: ${message}` } });
      // Asked once: Stripe's client retries none of these.
      expect(proxy.seen).toHaveLength(1);
    }
  });

  it("answers 502 to try again when Stripe fails, limits the site or refuses the site's own keys", async () => {
    const fundraiser = await createFundraiser(server.api, asUser(`owner-${randomUUID()}`));
    const failures: StripeAnswer[] = [
      { status: 500, body: { error: { type: 'api_error', message: 'Something went wrong on our end' } } },
      {
        status: 401,
        body: { error: { type: 'invalid_request_error', message: 'Invalid API Key provided: sk_test_***ck' } },
      },
      {
        status: 403,
        body: { error: { type: 'invalid_request_error', message: 'The provided key does not have access' } },
      },
      {
        status: 429,
        body: { error: { type: 'invalid_request_error', code: 'rate_limit', message: 'Too many requests' } },
      },
    ];
    for (const answer of failures) {
      proxy.answer = answer;
      const failed = await server.api('POST', `/api/fundraisers/${fundraiser.id}/checkout`, { body: { amount: 5 } });
      expect(failed, String(answer.status)).toMatchObject({
        status: 502,
        body: { error: 'Stripe could not start the checkout; please try again in a moment' },
      });
    }
  });

  it('takes a proof of work once, as the other anonymous forms do, and asks Stripe nothing without one', async () => {
    const fundraiser = await createFundraiser(server.api, asUser(`owner-${randomUUID()}`));
    const path = `/api/fundraisers/${fundraiser.id}/checkout`;
    const missing = await server.api('POST', path, { body: { amount: 5 }, headers: { 'x-altcha': '' } });
    expect(missing).toMatchObject({ status: 400, body: { error: PROOF_OF_WORK_MISSING } });
    expect(proxy.seen).toEqual([]);

    const solved = await solveProofOfWork(server.url);
    const first = await server.api('POST', path, { body: { amount: 5 }, headers: { 'x-altcha': solved } });
    expect(first.status).toBe(200);
    const again = await server.api('POST', path, { body: { amount: 5 }, headers: { 'x-altcha': solved } });
    expect(again).toMatchObject({ status: 400, body: { error: PROOF_OF_WORK_USED } });
    expect(proxy.seen).toHaveLength(1);
  });

  it('answers 404 for an unknown fundraiser and for one nobody has claimed, and asks Stripe nothing', async () => {
    const unknown = await server.api('POST', `/api/fundraisers/${randomUUID()}/checkout`, { body: { amount: 5 } });
    expect(unknown).toMatchObject({ status: 404, body: { error: 'Fundraiser not found' } });

    const unclaimed = randomUUID();
    const [shirts, charities] = await Promise.all([
      server.api('GET', '/api/shirts'),
      server.api('GET', '/api/charities'),
    ]);
    await server.embedded.eventStore.appendToStream(fundraiserStreamName(unclaimed), [
      {
        type: 'FundraiserCreated',
        data: {
          fundraiserId: unclaimed,
          userId: null,
          charityId: charities.body[0].id,
          shirtId: shirts.body[0].id,
          name: 'For a waitlist entry',
          at: new Date().toISOString(),
        },
        metadata: eventMetadata('FundraiserCreated'),
      },
    ]);
    const answer = await server.api('POST', `/api/fundraisers/${unclaimed}/checkout`, { body: { amount: 5 } });
    expect(answer).toMatchObject({ status: 404, body: { error: 'Fundraiser not found' } });
    expect(proxy.seen).toEqual([]);
  });
});

it('answers 502 with a JSON error when Stripe does not answer', async () => {
  // A port nothing listens on: the connection is refused, as with Stripe down.
  const server = await startTestServer({ env: stripeEnv(`http://127.0.0.1:${await freePort()}`) });
  try {
    const fundraiser = await createFundraiser(server.api, asUser(`owner-${randomUUID()}`));
    const answer = await server.api('POST', `/api/fundraisers/${fundraiser.id}/checkout`, { body: { amount: 5 } });
    expect(answer).toMatchObject({
      status: 502,
      body: { error: 'Stripe could not start the checkout; please try again in a moment' },
    });
  } finally {
    await server.stop();
  }
});

it('gives up on a Stripe that takes the request and never answers after the attempts configured: 504', async () => {
  // Accepts every connection and request, and answers none.
  const attempts: { idempotencyKey: string | undefined }[] = [];
  const silent = createServer((req) => {
    const key = req.headers['idempotency-key'];
    attempts.push({ idempotencyKey: Array.isArray(key) ? key[0] : key });
  });
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  const server = await startTestServer({
    env: stripeEnv(`http://127.0.0.1:${(silent.address() as AddressInfo).port}`),
  });
  try {
    const fundraiser = await createFundraiser(server.api, asUser(`owner-${randomUUID()}`));
    const answer = await server.api('POST', `/api/fundraisers/${fundraiser.id}/checkout`, {
      body: { amount: 5 },
      headers: { 'idempotency-key': `card-${randomUUID()}` },
    });
    expect(answer).toMatchObject({
      status: 504,
      body: { error: 'Stripe did not answer in time; please try again in a moment' },
    });
    // Every attempt is the same request to Stripe, so a late answer to one makes one session only.
    expect(attempts).toHaveLength(STRIPE_MAX_NETWORK_RETRIES + 1);
    expect(new Set(attempts.map(({ idempotencyKey }) => idempotencyKey)).size).toBe(1);
    // What the donor waits at most, by the client's settings rather than a clock: attempts of
    // STRIPE_TIMEOUT_MS, and stripe-node's backoff before a first retry, 0.5 s.
    expect(attempts.length * STRIPE_TIMEOUT_MS + (attempts.length - 1) * 500).toBeLessThanOrEqual(20_000);
  } finally {
    await server.stop();
    silent.closeAllConnections();
    await new Promise<void>((resolve) => silent.close(() => resolve()));
  }
});

it('answers 503 when Stripe is not configured', async () => {
  const server = await startTestServer();
  try {
    const fundraiser = await createFundraiser(server.api, asUser(`owner-${randomUUID()}`));
    const answer = await server.api('POST', `/api/fundraisers/${fundraiser.id}/checkout`, { body: { amount: 5 } });
    expect(answer.status).toBe(503);
    expect(answer.body.error).toMatch(/Stripe is not configured/);
  } finally {
    await server.stop();
  }
});
