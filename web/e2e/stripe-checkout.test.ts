import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createFundraiser, signUpThroughApi } from './support/accounts';
import { signInWithForm } from './support/admin';
import { startApp } from './support/app-process';
import { watchedPage } from './support/browser';
import { describeInBrowser, PHONE_USER_AGENT } from './support/describe-in-browser';
import { stripeSignature, withStripeJsStandIn } from './support/stripe';

const PUBLISHABLE_KEY = 'pk_test_51e2eWidget';
const WEBHOOK_SECRET = 'whsec_e2eWidget';

async function figure(page: Page, testId: string): Promise<number> {
  const text = await page.getByTestId(testId).first().textContent();
  return Number(text!.replace(/[$,]/g, ''));
}

/** A Checkout Session as Stripe's API answered it, with the form fields the gateway sent. */
interface CreatedSession {
  clientSecret: string;
  form: URLSearchParams;
  idempotencyKey: string | undefined;
}

/**
 * Stripe's API for the one call the card's checkout makes, POST /v1/checkout/sessions: each
 * session gets a client secret of its own, so the test can tell which one the card mounted.
 */
async function startStripeApiStandIn(): Promise<{ url: string; sessions: CreatedSession[]; stop(): Promise<void> }> {
  const sessions: CreatedSession[] = [];
  const body = async (request: IncomingMessage) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  };
  const server: Server = createServer((request, response) => {
    void body(request).then((text) => {
      if (request.method !== 'POST' || request.url !== '/v1/checkout/sessions') {
        response.writeHead(404, { 'Content-Type': 'application/json' });
        response.end(JSON.stringify({ error: { type: 'invalid_request_error', message: 'Unrecognized request URL' } }));
        return;
      }
      const form = new URLSearchParams(text);
      const id = `cs_test_e2e${sessions.length + 1}`;
      const clientSecret = `${id}_secret_${Math.random().toString(36).slice(2)}`;
      const header = request.headers['idempotency-key'];
      sessions.push({ clientSecret, form, idempotencyKey: typeof header === 'string' ? header : undefined });
      response.writeHead(200, { 'Content-Type': 'application/json', 'Request-Id': `req_${id}` });
      response.end(
        JSON.stringify({
          id,
          object: 'checkout.session',
          client_secret: clientSecret,
          livemode: false,
          mode: 'payment',
          status: 'open',
          payment_status: 'unpaid',
          currency: 'usd',
          amount_total: Number(form.get('line_items[0][price_data][unit_amount]')),
          metadata: {},
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    sessions,
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describeInBrowser("Stripe's embedded Checkout in the QR page's donation card", ({ newContext }) => {
  let stripeApi: Awaited<ReturnType<typeof startStripeApiStandIn>>;
  let app: Awaited<ReturnType<typeof startApp>> | undefined;
  beforeAll(async () => {
    stripeApi = await startStripeApiStandIn();
    // A second product, from the same build, with Stripe configured in test mode.
    app = await startApp({
      env: {
        STRIPE_SECRET_KEY: 'sk_test_51e2eWidget',
        STRIPE_PUBLISHABLE_KEY: PUBLISHABLE_KEY,
        STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
        STRIPE_API_URL: stripeApi.url,
      },
    });
  });
  afterAll(async () => {
    await app?.stop();
    await stripeApi?.stop();
  });

  it("mounts the Checkout for the chosen amount in the card, thanks the donor, and raises the owner's Total Raised once Stripe's webhook confirms it", async () => {
    const appUrl = app!.url;
    const owner = await signUpThroughApi(appUrl, 'Stella');
    const fundraiser = await createFundraiser(appUrl, owner.session);
    const ownerContext = await newContext();
    // The owner's page has the card too, whose Stripe.js loads as it goes live.
    await withStripeJsStandIn(ownerContext);
    const ownerView = await watchedPage(ownerContext);
    await signInWithForm(ownerView.page, owner.email, owner.password, appUrl);
    await ownerView.page.goto(`${appUrl}/fundraiser/${fundraiser.id}`);
    const before = await figure(ownerView.page, 'total-raised');
    await ownerView.page.evaluate(() => Object.assign(window, { stillTheSamePage: true }));

    const context = await newContext({ userAgent: PHONE_USER_AGENT });
    const stripeJsRequests = await withStripeJsStandIn(context);
    const { page, errors } = await watchedPage(context);

    await page.goto(`${appUrl}/fundraiser/${fundraiser.id}`);
    const card = page.locator('[data-island="donation"]');
    await card.getByRole('radio', { name: '$25' }).check();
    const checkoutCall = page.waitForRequest((request) => request.url().endsWith(`/${fundraiser.id}/checkout`));
    await card.getByRole('button', { name: 'Continue to payment' }).click();
    const checkoutHeaders = (await checkoutCall).headers();
    const checkoutKey = checkoutHeaders['idempotency-key'];
    expect(checkoutKey).toBeTruthy();
    // The card's widget solved the gateway's challenge, which the gateway took.
    expect(checkoutHeaders['x-altcha']).toBeTruthy();

    const mounted = card.getByText('Stripe Checkout (stand-in)');
    await mounted.waitFor();
    expect(stripeApi.sessions).toHaveLength(1);
    const [session] = stripeApi.sessions;
    expect(await mounted.getAttribute('data-client-secret')).toBe(session!.clientSecret);
    expect(session!.form.get('line_items[0][price_data][unit_amount]')).toBe('2500');
    expect(session!.form.get('metadata[fundraiserId]')).toBe(fundraiser.id);
    expect(session!.idempotencyKey).toContain(checkoutKey);
    expect(
      await page.evaluate(() => (window as unknown as { stripeStandIn: { keys: string[] } }).stripeStandIn.keys),
    ).toEqual([PUBLISHABLE_KEY]);
    expect(stripeJsRequests.every((url) => url.startsWith('https://js.stripe.com/'))).toBe(true);
    // Its frames, which the policy lets in: a refused frame would be left at an error page.
    await expect
      .poll(() => page.frames().map((frame) => frame.url()))
      .toEqual(
        expect.arrayContaining([
          'https://js.stripe.com/v3/controller-stand-in.html',
          `https://checkout.stripe.com/c/pay/${session!.clientSecret.split('_secret_')[0]}`,
        ]),
      );

    const report = page.waitForRequest((request) => request.url().endsWith(`/${fundraiser.id}/donate`));
    await page.evaluate(() =>
      (window as unknown as { stripeStandIn: { complete: () => void } }).stripeStandIn.complete(),
    );
    const thanks = page.getByTestId('donation-thanks');
    await thanks.waitFor();
    expect(await thanks.textContent()).toContain('Your $25.00 gift');
    const reported = await report;
    expect(reported.headers()['idempotency-key']).toBe(checkoutKey);
    expect(reported.postDataJSON()).toEqual({ amount: 25 });
    // The Checkout leaves the card with its payment; the thank-you leaves by itself (after 5 s:
    // qr-landing.test.tsx holds it to that, on a test clock).
    await mounted.waitFor({ state: 'detached' });
    await thanks.waitFor({ state: 'detached' });
    // Stripe.js was let in by the page's Content-Security-Policy: no violation, no error.
    expect(errors).toEqual([]);

    // Stripe tells the product the session was paid; the owner's open page shows it.
    const delivery = JSON.stringify({
      id: `evt_e2e${Date.now()}`,
      object: 'event',
      type: 'checkout.session.completed',
      created: Math.floor(Date.now() / 1000),
      livemode: false,
      data: {
        object: {
          id: 'cs_test_e2e1',
          object: 'checkout.session',
          amount_total: 2500,
          currency: 'usd',
          payment_status: 'paid',
          payment_intent: `pi_e2e${Date.now()}`,
          client_reference_id: fundraiser.id,
          // As the product made the session: signed, so that it counts.
          metadata: Object.fromEntries(
            ['fundraiserId', 'reportId', 'charityId', 'signature'].map((key) => [
              key,
              session!.form.get(`metadata[${key}]`),
            ]),
          ),
        },
      },
    });
    const webhook = await fetch(`${appUrl}/api/webhooks/stripe`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Stripe-Signature': stripeSignature(delivery, WEBHOOK_SECRET) },
      body: delivery,
    });
    expect(webhook.status).toBe(200);
    await ownerView.page.waitForFunction(
      (expected) => document.querySelector('[data-testid="total-raised"]')?.textContent === expected,
      `$${(before + 25).toFixed(2)}`,
    );
    expect(await ownerView.page.evaluate(() => 'stillTheSamePage' in window)).toBe(true);
    // Confirmed, not merely reported: nothing left awaiting confirmation.
    await ownerView.page.getByTestId('awaiting-confirmation').waitFor({ state: 'detached' });
    expect(ownerView.errors).toEqual([]);
  });
});
