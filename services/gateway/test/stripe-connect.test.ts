import { randomUUID } from 'node:crypto';
import { charityPayouts } from '@qrshirt/contracts';
import { donationReportStreamName, reportIdFor } from '@qrshirt/core';
import { createFundraiser, startRecordingProxy, WAIT_MS } from '@qrshirt/test-support';
import { describeWithStripeMock } from '@qrshirt/test-support/vitest';
import Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type AdminTestServer, startAdminServer } from './support/admin';
import { asUser } from './support/test-server';

/*
 * Charities paid through Stripe Connect, against the real gateway and stripe-mock behind a
 * recording proxy: the onboarding calls, an admin's and the charity's submitter's, what Stripe's
 * account.updated (signed as Stripe signs) changes, and the destination charge on a donation's
 * Checkout Session.
 */

const WEBHOOK_SECRET = 'whsec_connect_platform';
const CONNECT_SECRET = 'whsec_connect_accounts';
// Only its webhooks helpers are used here: they make signatures and call no API.
const signing = new Stripe('sk_test_signing_only');

const stripeEnv = (apiUrl: string, mode: 'test' | 'live') => ({
  STRIPE_SECRET_KEY: `sk_${mode}_connect`,
  STRIPE_PUBLISHABLE_KEY: `pk_${mode}_connect`,
  STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
  STRIPE_CONNECT_WEBHOOK_SECRET: CONNECT_SECRET,
  STRIPE_PLATFORM_FEE_PERCENT: '2.5',
  STRIPE_API_URL: apiUrl,
  PUBLIC_BASE_URL: 'https://shirts.example',
  DEMO_PROCESSOR: 'false',
});

describeWithStripeMock('charities paid through Stripe Connect (stripe-mock)', (stripeMock) => {
  for (const mode of ['test', 'live'] as const) {
    describeMode(mode);
  }

  function describeMode(mode: 'test' | 'live') {
    let server: AdminTestServer;
    let proxy: Awaited<ReturnType<typeof startRecordingProxy>>;

    beforeAll(async () => {
      proxy = await startRecordingProxy(stripeMock.url);
      server = await startAdminServer({ env: stripeEnv(proxy.url, mode) });
    });
    afterAll(async () => {
      await server?.stop();
      await proxy?.close();
    });
    beforeEach(() => {
      proxy.seen.length = 0;
    });

    /** A claimed fundraiser for a charity of its own, so each test starts with an unconnected charity. */
    async function fundraiserOfNewCharity() {
      const created = await server.api('POST', '/api/admin/charities', {
        ...server.admin,
        body: {
          name: `Wells ${randomUUID().slice(0, 8)}`,
          mission: 'Clean water.',
          website_url: 'https://wells.example',
        },
      });
      expect(created.status).toBe(201);
      const charityId = created.body.id as string;
      // The shop (and its checks) offers the charity once the catalogue has it.
      await server.embedded.projectionsCaughtUp(WAIT_MS);
      const fundraiser = await createFundraiser(server.api, asUser(`owner-${randomUUID()}`), { charityId });
      return { charityId, fundraiser };
    }

    async function accountUpdated(charityId: string, accountId: string, enabled: boolean, created: number) {
      const body = JSON.stringify({
        id: `evt_${randomUUID().replaceAll('-', '')}`,
        type: 'account.updated',
        created,
        livemode: mode === 'live',
        account: accountId,
        data: {
          object: {
            id: accountId,
            object: 'account',
            charges_enabled: enabled,
            payouts_enabled: enabled,
            details_submitted: true,
            metadata: { charityId },
          },
        },
      });
      // Connected accounts' events come from the Connect endpoint, signed with its own secret.
      const signature = signing.webhooks.generateTestHeaderString({ payload: body, secret: CONNECT_SECRET });
      return server.api('POST', '/api/webhooks/stripe', { rawBody: body, headers: { 'stripe-signature': signature } });
    }

    const startPayouts = (charityId: string) =>
      server.api('POST', `/api/admin/charities/${charityId}/payouts`, server.admin);

    const payoutsOf = async (charityId: string) => {
      const answer = await server.api('GET', `/api/admin/charities/${charityId}/payouts`, server.admin);
      expect(answer.status).toBe(200);
      return charityPayouts.parse(answer.body);
    };

    it(`${mode}: opens an Express account once and answers a fresh onboarding link each time`, async () => {
      const { charityId } = await fundraiserOfNewCharity();
      expect(await payoutsOf(charityId)).toEqual({
        accountId: null,
        chargesEnabled: false,
        payoutsEnabled: false,
        detailsSubmitted: false,
      });

      const first = await startPayouts(charityId);
      expect(first.status, JSON.stringify(first.body)).toBe(200);
      expect(first.body.url).toMatch(/^https:\/\//);
      const [opened, linked] = proxy.seen;
      expect(opened).toMatchObject({
        method: 'POST',
        path: '/v1/accounts',
        idempotencyKey: `payout-account:${charityId}`,
      });
      expect(Object.fromEntries(opened!.form)).toMatchObject({
        country: 'US',
        business_type: 'non_profit',
        'controller[stripe_dashboard][type]': 'express',
        'controller[fees][payer]': 'application',
        'controller[losses][payments]': 'application',
        'capabilities[card_payments][requested]': 'true',
        'capabilities[transfers][requested]': 'true',
        'metadata[charityId]': charityId,
      });
      const { accountId } = await payoutsOf(charityId);
      expect(accountId).toMatch(/^acct_/);
      expect(linked).toMatchObject({ method: 'POST', path: '/v1/account_links' });
      expect(Object.fromEntries(linked!.form)).toEqual({
        account: accountId,
        type: 'account_onboarding',
        return_url: `https://shirts.example/admin/charities/${charityId}/payouts`,
        refresh_url: `https://shirts.example/admin/charities/${charityId}/payouts?expired=1`,
      });

      // Again: the same account, a new link.
      proxy.seen.length = 0;
      const again = await startPayouts(charityId);
      expect(again.status).toBe(200);
      expect(proxy.seen.map(({ path }) => path)).toEqual(['/v1/account_links']);
    });

    /** A charity a member submitted, as `POST /api/charity` makes it: pending until an admin approves it. */
    async function submittedCharity() {
      const creator = asUser(`creator-${randomUUID()}`);
      const submitted = await server.api('POST', '/api/charity', {
        ...creator,
        body: { name: `Bees ${randomUUID().slice(0, 8)}`, mission: 'Keeps bees.', website_url: 'https://bees.example' },
      });
      expect(submitted).toMatchObject({ status: 201, body: { status: 'pending' } });
      return { creator, charityId: submitted.body.id as string };
    }

    const approve = async (charityId: string) =>
      expect((await server.api('POST', `/api/admin/charities/${charityId}/approve`, server.admin)).status).toBe(200);

    it(`${mode}: lets only the member who submitted an approved charity see or start its account`, async () => {
      const { creator, charityId } = await submittedCharity();
      const own = `/api/charity/${charityId}/payouts`;
      for (const method of ['GET', 'POST'] as const) {
        expect(await server.api(method, own, creator)).toMatchObject({
          status: 404,
          body: { error: 'Charity not found (or not approved yet)' },
        });
      }
      await approve(charityId);
      for (const method of ['GET', 'POST'] as const) {
        for (const someoneElse of [server.member, asUser(`member-${randomUUID()}`)]) {
          expect(await server.api(method, own, someoneElse)).toMatchObject({
            status: 403,
            body: { error: 'Only the member who submitted this charity can connect it to Stripe' },
          });
        }
        expect(await server.api(method, `/api/charity/${randomUUID()}/payouts`, creator)).toMatchObject({
          status: 404,
        });
      }
      expect(proxy.seen).toEqual([]);
      const status = await server.api('GET', own, creator);
      expect(status.status).toBe(200);
      expect(charityPayouts.parse(status.body)).toEqual(await payoutsOf(charityId));
    });

    it(`${mode}: its submitter opens the account from their own page, and Stripe returns them there`, async () => {
      const { creator, charityId } = await submittedCharity();
      await approve(charityId);

      const started = await server.api('POST', `/api/charity/${charityId}/payouts`, creator);
      expect(started.status, JSON.stringify(started.body)).toBe(200);
      expect(started.body.url).toMatch(/^https:\/\//);
      const [opened, linked] = proxy.seen;
      expect(opened).toMatchObject({ path: '/v1/accounts', idempotencyKey: `payout-account:${charityId}` });
      expect(Object.fromEntries(opened!.form)).toMatchObject({
        business_type: 'non_profit',
        'controller[stripe_dashboard][type]': 'express',
        'metadata[charityId]': charityId,
      });
      const { accountId } = await payoutsOf(charityId);
      expect(accountId).toMatch(/^acct_/);
      expect(Object.fromEntries(linked!.form)).toEqual({
        account: accountId,
        type: 'account_onboarding',
        return_url: `https://shirts.example/charity/${charityId}/payouts`,
        refresh_url: `https://shirts.example/charity/${charityId}/payouts?expired=1`,
      });
      const ownStatus = await server.api('GET', `/api/charity/${charityId}/payouts`, creator);
      expect(charityPayouts.parse(ownStatus.body)).toMatchObject({ accountId, chargesEnabled: false });

      // The same account, whoever goes on: an admin's link returns to the admin area.
      proxy.seen.length = 0;
      expect((await startPayouts(charityId)).status).toBe(200);
      expect(proxy.seen.map(({ path }) => path)).toEqual(['/v1/account_links']);
      expect(proxy.seen[0]!.form.get('account')).toBe(accountId);
      expect(proxy.seen[0]!.form.get('return_url')).toBe(`https://shirts.example/admin/charities/${charityId}/payouts`);
    });

    it(`${mode}: keeps Stripe's latest word on the account, whatever order it comes in`, async () => {
      const { charityId } = await fundraiserOfNewCharity();
      await startPayouts(charityId);
      const { accountId } = await payoutsOf(charityId);
      const now = Math.floor(Date.now() / 1000);
      expect(await accountUpdated(charityId, accountId!, true, now)).toMatchObject({
        status: 200,
        body: { outcome: 'recorded' },
      });
      // An older word, delivered late.
      expect(await accountUpdated(charityId, accountId!, false, now - 60)).toMatchObject({
        status: 200,
        body: { outcome: 'unchanged' },
      });
      expect(await payoutsOf(charityId)).toEqual({
        accountId,
        chargesEnabled: true,
        payoutsEnabled: true,
        detailsSubmitted: true,
      });
      // An account the product never opened for this charity.
      expect(await accountUpdated(charityId, 'acct_someone_else', false, now + 60)).toMatchObject({
        body: { outcome: 'unchanged' },
      });
      expect((await payoutsOf(charityId)).chargesEnabled).toBe(true);
    });

    it(`${mode}: pays a connected charity by a destination charge, less the platform's fee`, async () => {
      const { charityId, fundraiser } = await fundraiserOfNewCharity();
      await startPayouts(charityId);
      const { accountId } = await payoutsOf(charityId);
      await accountUpdated(charityId, accountId!, true, Math.floor(Date.now() / 1000));
      proxy.seen.length = 0;

      const key = `connect-${randomUUID()}`;
      const answer = await server.api('POST', `/api/fundraisers/${fundraiser.id}/checkout`, {
        body: { amount: 40 },
        headers: { 'idempotency-key': key },
      });
      expect(answer.status).toBe(200);
      const form = Object.fromEntries(proxy.seen[0]!.form);
      expect(form).toMatchObject({
        'payment_intent_data[on_behalf_of]': accountId,
        'payment_intent_data[transfer_data][destination]': accountId,
        // 2.5 % of $40.00.
        'payment_intent_data[application_fee_amount]': '100',
      });
      // The session as the product recorded it, whole: the charity it pays and the keys' mode.
      const reportId = reportIdFor(fundraiser.id, key);
      expect(await server.embedded.eventStore.readStream(donationReportStreamName(reportId))).toMatchObject([
        {
          type: 'DonationCheckoutCreated',
          data: {
            reportId,
            fundraiserId: fundraiser.id,
            charityId,
            amountCents: 4000,
            sessionId: expect.stringMatching(/^cs_/),
            live: mode === 'live',
          },
        },
      ]);
    });

    it(`${mode}: ${mode === 'live' ? 'refuses' : 'takes'} a card donation to a charity not connected yet`, async () => {
      const { fundraiser } = await fundraiserOfNewCharity();
      const answer = await server.api('POST', `/api/fundraisers/${fundraiser.id}/checkout`, { body: { amount: 40 } });
      if (mode === 'live') {
        expect(answer).toMatchObject({
          status: 409,
          body: { error: expect.stringMatching(/cannot take card donations here yet$/) },
        });
        expect(proxy.seen).toEqual([]);
      } else {
        // Test money goes to the platform, as before Connect.
        expect(answer.status).toBe(200);
        expect(Object.keys(Object.fromEntries(proxy.seen[0]!.form))).not.toContain('payment_intent_data[on_behalf_of]');
      }
    });
  }

  it('answers 404 for a charity that is unknown or not approved, and asks Stripe nothing', async () => {
    const proxy = await startRecordingProxy(stripeMock.url);
    const server = await startAdminServer({ env: stripeEnv(proxy.url, 'test') });
    try {
      const pending = await server.api('POST', '/api/charity', {
        ...server.member,
        body: { name: 'Pending Wells', mission: 'Water.', website_url: 'https://pending.example' },
      });
      expect(pending.status).toBe(201);
      for (const id of [randomUUID(), pending.body.id as string]) {
        const answer = await server.api('POST', `/api/admin/charities/${id}/payouts`, server.admin);
        expect(answer).toMatchObject({ status: 404, body: { error: 'Charity not found (or not approved yet)' } });
      }
      expect((await server.api('POST', `/api/admin/charities/${randomUUID()}/payouts`, server.member)).status).toBe(
        403,
      );
      expect(proxy.seen).toEqual([]);
    } finally {
      await server.stop();
      await proxy.close();
    }
  });
});

describe('charities paid through Stripe Connect, without Stripe', () => {
  it("answers the admin's and the submitter's start 503, and their status that nothing is open", async () => {
    const server = await startAdminServer();
    try {
      const creator = asUser(`creator-${randomUUID()}`);
      const submitted = await server.api('POST', '/api/charity', {
        ...creator,
        body: { name: 'Offline Wells', mission: 'Water.', website_url: 'https://offline.example' },
      });
      const charityId = submitted.body.id as string;
      expect((await server.api('POST', `/api/admin/charities/${charityId}/approve`, server.admin)).status).toBe(200);
      const refusal = {
        status: 503,
        body: { error: 'Charities cannot be connected here: Stripe is not configured (STRIPE_SECRET_KEY)' },
      };
      expect(await server.api('POST', `/api/admin/charities/${charityId}/payouts`, server.admin)).toMatchObject(
        refusal,
      );
      expect(await server.api('POST', `/api/charity/${charityId}/payouts`, creator)).toMatchObject(refusal);
      expect(await server.api('GET', `/api/charity/${charityId}/payouts`, creator)).toMatchObject({
        status: 200,
        body: { accountId: null, chargesEnabled: false },
      });
    } finally {
      await server.stop();
    }
  });
});
