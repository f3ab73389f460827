import { type AuthSession, charity as charitySchema, charityPayouts } from '@qrshirt/contracts';
import { as, createApiClient, startRecordingProxy } from '@qrshirt/test-support';
import { describeWithStripeMock } from '@qrshirt/test-support/vitest';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createFundraiser, signUpThroughApi } from './support/accounts';
import { adminAccount, projectedUpToNow, signInWithForm } from './support/admin';
import { startApp } from './support/app-process';
import { checkScreen, watchedPage } from './support/browser';
import { describeInBrowser, PHONE_USER_AGENT } from './support/describe-in-browser';
import { stripeSignature, withStripeJsStandIn } from './support/stripe';

const CONNECT_WEBHOOK_SECRET = 'whsec_e2eConnectAccounts';

/** The browser logs each refused request as an error; the 409 is the answer the card shows. */
const refusedCheckout = /status of 409 .*\/checkout\)$/;

/**
 * The onboarding link the page's next POST to a path ending so answers with (what the returned
 * function resolves to), read on its way: the page goes to it at once, and Chromium no longer
 * has the body of a response navigated away from (a busy machine's test read it too late).
 */
async function nextPostAnswer(page: Page, pathEnd: string): Promise<() => Promise<{ url: string }>> {
  let answered!: (answer: Promise<{ url: string }>) => void;
  const answer = new Promise<{ url: string }>((resolve) => (answered = (found) => resolve(found)));
  await page.route(
    (url) => url.pathname.endsWith(pathEnd),
    async (route) => {
      if (route.request().method() !== 'POST') return route.fallback();
      const response = await route.fetch();
      answered(response.json() as Promise<{ url: string }>);
      await route.fulfill({ response });
    },
  );
  return () => answer;
}

async function charityPayoutsOf(appUrl: string, admin: AuthSession, charityId: string) {
  const answer = await fetch(`${appUrl}/api/admin/charities/${charityId}/payouts`, {
    headers: { Authorization: `Bearer ${admin.accessToken}`, 'x-user-id': admin.user.uid },
  });
  expect(answer.status).toBe(200);
  return charityPayouts.parse(await answer.json());
}

/**
 * What Stripe's Connect endpoint sends once a connected account may take charges, signed with
 * that endpoint's own secret; the account carries the charity's id the product opened it with.
 */
async function accountTakesCharges(appUrl: string, accountId: string, charityId: string): Promise<Response> {
  const delivery = JSON.stringify({
    id: `evt_e2eConnect${Date.now()}`,
    object: 'event',
    type: 'account.updated',
    created: Math.floor(Date.now() / 1000),
    livemode: true,
    account: accountId,
    data: {
      object: {
        id: accountId,
        object: 'account',
        charges_enabled: true,
        payouts_enabled: true,
        details_submitted: true,
        metadata: { charityId },
      },
    },
  });
  return fetch(`${appUrl}/api/webhooks/stripe`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      'Stripe-Signature': stripeSignature(delivery, CONNECT_WEBHOOK_SECRET),
    },
    body: delivery,
  });
}

describeInBrowser('a charity connected to Stripe by an admin or its submitter (live keys)', ({ newContext }) => {
  describeWithStripeMock('against stripe-mock', (stripeMock) => {
    let proxy: Awaited<ReturnType<typeof startRecordingProxy>> | undefined;
    let app: Awaited<ReturnType<typeof startApp>> | undefined;
    beforeAll(async () => {
      // stripe-mock takes test keys only: the proxy passes the live ones on as test ones.
      proxy = await startRecordingProxy(stripeMock.url);
      app = await startApp({
        env: {
          STRIPE_SECRET_KEY: 'sk_live_e2eConnect',
          STRIPE_PUBLISHABLE_KEY: 'pk_live_e2eConnect',
          STRIPE_WEBHOOK_SECRET: 'whsec_e2eConnectPlatform',
          STRIPE_CONNECT_WEBHOOK_SECRET: CONNECT_WEBHOOK_SECRET,
          STRIPE_API_URL: proxy.url,
        },
      });
    });
    afterAll(async () => {
      await app?.stop();
      await proxy?.close();
    });

    it('says on the QR page that an unconnected charity takes no card donation, then shows the Checkout once an admin connected it', async () => {
      const appUrl = app!.url;
      const owner = await signUpThroughApi(appUrl, 'Connie');
      const fundraiser = await createFundraiser(appUrl, owner.session);
      const charityId = fundraiser.charityId;
      const { name } = charitySchema.parse(await (await fetch(`${appUrl}/api/charity/${charityId}`)).json());

      const donorContext = await newContext({ userAgent: PHONE_USER_AGENT });
      await withStripeJsStandIn(donorContext);
      const donor = await watchedPage(donorContext);
      const card = donor.page.locator('[data-island="donation"]');
      const continueToPayment = async () => {
        await donor.page.goto(`${appUrl}/fundraiser/${fundraiser.id}`);
        await card.getByRole('radio', { name: '$25' }).check();
        await card.getByRole('button', { name: 'Continue to payment' }).click();
      };

      await continueToPayment();
      const closed = card.getByTestId('card-donations-closed');
      await closed.waitFor();
      expect(await closed.textContent()).toBe(`${name} cannot take card donations here yet`);
      expect(await card.getByRole('button').count()).toBe(0);
      expect(await checkScreen(donor.page, 'qr-landing-charity-not-connected')).toEqual([]);
      expect(proxy!.seen.map(({ path }) => path)).not.toContain('/v1/checkout/sessions');

      // The admin opens the charity's Payouts page and leaves for Stripe's onboarding, which
      // stands in here for whatever site Stripe's link names.
      const admin = await adminAccount(appUrl, app!.dataDir);
      const adminContext = await newContext();
      const onboardingVisits: string[] = [];
      await adminContext.route(
        (url) => url.origin !== new URL(appUrl).origin,
        (route) => {
          onboardingVisits.push(route.request().url());
          return route.fulfill({ contentType: 'text/html', body: '<title>Stripe onboarding (stand-in)</title>' });
        },
      );
      const ops = await watchedPage(adminContext);
      await signInWithForm(ops.page, admin.email, admin.password, appUrl);
      await ops.page.goto(`${appUrl}/admin/charities`);
      await ops.page.getByRole('link', { name: `Payouts of ${name}` }).click();
      const stage = ops.page.getByTestId('payouts-stage');
      await stage.waitFor();
      expect(await stage.textContent()).toBe('Not connected');
      expect(await checkScreen(ops.page, 'admin-charity-payouts')).toEqual([]);

      const started = await nextPostAnswer(ops.page, `/${charityId}/payouts`);
      await ops.page.getByRole('button', { name: 'Connect a Stripe account' }).click();
      const { url: onboardingUrl } = await started();
      await ops.page.waitForURL(onboardingUrl);
      expect(onboardingVisits).toEqual([onboardingUrl]);
      const link = proxy!.seen.find(({ path }) => path === '/v1/account_links')!;
      expect(new URL(link.form.get('return_url')!).pathname).toBe(`/admin/charities/${charityId}/payouts`);

      // Stripe says the account takes charges, and sends the admin back to the Payouts page.
      const { accountId } = await charityPayoutsOf(appUrl, admin.session, charityId);
      expect(accountId).toMatch(/^acct_/);
      const webhook = await accountTakesCharges(appUrl, accountId!, charityId);
      expect(webhook.status).toBe(200);
      await ops.page.goto(`${appUrl}/admin/charities/${charityId}/payouts`);
      await ops.page.getByTestId('payouts-stage').getByText('Connected', { exact: true }).waitFor();
      expect(ops.errors).toEqual([]);

      // The same card now shows the Checkout, paying the charity's account.
      await continueToPayment();
      await card.getByText('Stripe Checkout (stand-in)').waitFor();
      const session = proxy!.seen.find(({ path }) => path === '/v1/checkout/sessions')!;
      expect(session.form.get('payment_intent_data[transfer_data][destination]')).toBe(accountId);
      expect(await card.getByTestId('card-donations-closed').count()).toBe(0);
      expect(donor.errors.filter((error) => !refusedCheckout.test(error))).toEqual([]);
    });

    it("lets the charity's submitter connect it from their own page, found on their dashboard", async () => {
      const appUrl = app!.url;
      const api = createApiClient(appUrl);
      const creator = await signUpThroughApi(appUrl, 'Cora');
      const name = `Cora's Bees ${Date.now()}`;
      const submitted = await api('POST', '/api/charity', {
        ...as(creator.session),
        body: { name, mission: 'Keeps bees.', website_url: 'https://bees.example.org' },
      });
      expect(submitted.status).toBe(201);
      const charityId = charitySchema.parse(submitted.body).id;
      const admin = await adminAccount(appUrl, app!.dataDir);
      expect((await api('POST', `/api/admin/charities/${charityId}/approve`, as(admin.session))).status).toBe(200);
      await projectedUpToNow(appUrl, admin.session, 'catalog');

      const context = await newContext();
      const onboardingVisits: string[] = [];
      await context.route(
        (url) => url.origin !== new URL(appUrl).origin,
        (route) => {
          onboardingVisits.push(route.request().url());
          return route.fulfill({ contentType: 'text/html', body: '<title>Stripe onboarding (stand-in)</title>' });
        },
      );
      const { page, errors } = await watchedPage(context);
      await signInWithForm(page, creator.email, creator.password, appUrl);
      const list = page.getByRole('region', { name: 'Your Charities' });
      const payoutsLink = list.getByRole('link', { name: `Stripe payouts of ${name}` });
      await payoutsLink.waitFor();
      expect(await checkScreen(page, 'dashboard-your-charities')).toEqual([]);
      await payoutsLink.click();
      await page.waitForURL(`**/charity/${charityId}/payouts`);
      const stage = page.getByTestId('payouts-stage');
      await stage.waitFor();
      expect(await stage.textContent()).toBe('Not connected');
      expect(await checkScreen(page, 'charity-payouts')).toEqual([]);

      const started = await nextPostAnswer(page, `/api/charity/${charityId}/payouts`);
      await page.getByRole('button', { name: 'Connect to Stripe' }).click();
      const { url: onboardingUrl } = await started();
      await page.waitForURL(onboardingUrl);
      expect(onboardingVisits).toEqual([onboardingUrl]);
      const link = proxy!.seen.findLast(({ path }) => path === '/v1/account_links')!;
      const returnUrl = new URL(link.form.get('return_url')!);
      expect(returnUrl.pathname).toBe(`/charity/${charityId}/payouts`);
      expect(new URL(link.form.get('refresh_url')!).search).toBe('?expired=1');

      // Stripe sends the member back before it has said anything of the account.
      await page.goto(`${appUrl}${returnUrl.pathname}`);
      await page.getByTestId('payouts-stage').getByText('Onboarding not finished', { exact: true }).waitFor();
      await page.goto(`${appUrl}${returnUrl.pathname}?expired=1`);
      await page.getByText('That Stripe link has expired').waitFor();
      expect(await page.getByRole('button', { name: 'Continue Stripe onboarding' }).count()).toBe(1);

      const { accountId } = await charityPayoutsOf(appUrl, admin.session, charityId);
      expect((await accountTakesCharges(appUrl, accountId!, charityId)).status).toBe(200);
      await page.goto(`${appUrl}${returnUrl.pathname}`);
      await page.getByTestId('payouts-stage').getByText('Takes card donations', { exact: true }).waitFor();
      expect(await page.getByRole('button', { name: /Stripe/ }).count()).toBe(0);
      expect(await checkScreen(page, 'charity-payouts-connected')).toEqual([]);
      expect(errors).toEqual([]);
    });
  });
});
