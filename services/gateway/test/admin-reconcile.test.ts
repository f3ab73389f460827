import { type EventData, type EventType, adminReconciliation, eventMetadata } from '@qrshirt/contracts';
import { startRecordingProxy } from '@qrshirt/test-support';
import { describeWithStripeMock } from '@qrshirt/test-support/vitest';
import Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type AdminTestServer, startAdminServer } from './support/admin';

/*
 * GET /api/admin/reconcile over HTTP through the real gateway: the comparison `npm run reconcile`
 * makes (scripts/test/reconcile-cli.test.ts plants its differences), here against Stripe's own
 * stripe-mock, by way of the recording proxy that keeps what the gateway asked.
 */

const event = <T extends EventType>(type: T, data: EventData<T>) => ({ type, data, metadata: eventMetadata(type) });

describe('GET /api/admin/reconcile without Stripe', () => {
  let server: AdminTestServer;
  beforeAll(async () => {
    server = await startAdminServer();
  });
  afterAll(() => server?.stop());

  it('answers 503 with a readable error', async () => {
    const answer = await server.api('GET', '/api/admin/reconcile?from=2026-03-01&to=2026-03-31', server.admin);
    expect(answer).toMatchObject({
      status: 503,
      body: { error: 'Reconciling needs Stripe, which is not configured here (STRIPE_SECRET_KEY)' },
    });
  });

  it('answers 400 for a missing or unreadable period, and 401 or 403 to anyone but an admin', async () => {
    for (const [query, error] of [
      ['from=2026-03-01', /to/],
      ['from=2026-03-31&to=2026-03-01', /to is before from/],
      ['from=March&to=2026-03-31', /from must be a day/],
    ] as const) {
      const answer = await server.api('GET', `/api/admin/reconcile?${query}`, server.admin);
      expect(answer.status, query).toBe(400);
      expect(answer.body.error).toMatch(error);
    }
    const period = '/api/admin/reconcile?from=2026-03-01&to=2026-03-31';
    expect((await server.api('GET', period)).status).toBe(401);
    expect((await server.api('GET', period, server.member)).status).toBe(403);
  });
});

describeWithStripeMock('GET /api/admin/reconcile with Stripe (stripe-mock)', (stripeMock) => {
  let server: AdminTestServer;
  let proxy: Awaited<ReturnType<typeof startRecordingProxy>>;
  /** stripe-mock's own transfer fixture, as Stripe's client lists it. */
  let fixture: Stripe.Transfer;
  const period = { from: '2009-01-01', to: '2030-12-31' };
  const ask = () => server.api('GET', `/api/admin/reconcile?from=${period.from}&to=${period.to}`, server.admin);

  beforeAll(async () => {
    proxy = await startRecordingProxy(stripeMock.url);
    server = await startAdminServer({
      env: {
        STRIPE_SECRET_KEY: 'sk_test_reconcile',
        STRIPE_PUBLISHABLE_KEY: 'pk_test_reconcile',
        STRIPE_WEBHOOK_SECRET: 'whsec_reconcile',
        STRIPE_API_URL: proxy.url,
      },
    });
    const url = new URL(stripeMock.url);
    const client = new Stripe('sk_test_reconcile', { host: url.hostname, port: Number(url.port), protocol: 'http' });
    fixture = (await client.transfers.list({ limit: 100 })).data[0]!;
  });
  afterAll(async () => {
    await server?.stop();
    await proxy?.close();
  });
  beforeEach(() => {
    proxy.seen.length = 0;
    proxy.answer = null;
  });

  it("lists a transfer of Stripe's the ledger lacks, asking Stripe for the period's books", async () => {
    const answer = await ask();
    expect(answer.status).toBe(200);
    const found = adminReconciliation.parse(answer.body);
    expect(found).toMatchObject({ from: '2009-01-01T00:00:00.000Z', to: '2030-12-31T23:59:59.999Z', live: false });
    expect(found.differences).toContainEqual({
      subject: 'charity',
      id: fixture.destination,
      charityId: null,
      figure: 'transfers',
      ledger: 0,
      stripe: fixture.amount / 100,
    });
    const asked = proxy.seen.map(({ method, path }) => {
      const url = new URL(path, 'http://stripe');
      return [method, url.pathname, url.searchParams.get('created[gte]'), url.searchParams.get('created[lte]')];
    });
    const seconds = [
      String(Date.parse('2009-01-01') / 1000),
      String(Math.floor(Date.parse('2030-12-31T23:59:59.999Z') / 1000)),
    ];
    expect(asked).toEqual([
      ['GET', '/v1/balance_transactions', ...seconds],
      ['GET', '/v1/transfers', ...seconds],
    ]);
  });

  it("sets each charity's transfers beside Stripe's: once the ledger holds the fixture's, it differs no more", async () => {
    const account = fixture.destination as string;
    const paidAt = '2026-03-02T10:00:00.000Z';
    await server.embedded.eventStore.appendToStream('charity-payout-account-c-reconciled', [
      event('CharityPayoutAccountOpened', { charityId: 'c-reconciled', accountId: account, live: false, at: paidAt }),
    ]);
    await server.embedded.eventStore.appendToStream('processor-donation-pi_reconciled', [
      event('DonationMovementRecorded', {
        donationId: 'pi_reconciled',
        movement: { kind: 'transfer', transferId: fixture.id, destination: account, amountCents: fixture.amount },
        movedAt: paidAt,
        at: paidAt,
      }),
      event('DonationConfirmed', {
        donationId: 'pi_reconciled',
        fundraiserId: 'f-reconciled',
        charityId: 'c-reconciled',
        amountCents: fixture.amount,
        currency: 'USD',
        reportId: null,
        live: false,
        at: paidAt,
      }),
    ]);
    const answer = await ask();
    const found = adminReconciliation.parse(answer.body);
    // stripe-mock's one balance transaction names no PaymentIntent: nothing of Stripe's to set beside the payment.
    expect(found.differences).toEqual([
      {
        subject: 'payment',
        id: 'pi_reconciled',
        charityId: null,
        figure: 'gross',
        ledger: fixture.amount / 100,
        stripe: 0,
      },
    ]);
    expect(found).toMatchObject({ payments: 1, accounts: 1 });
  });

  it('answers 502 with what Stripe said when it fails to list its books', async () => {
    proxy.answer = { status: 500, body: { error: { type: 'api_error', message: 'Something went wrong' } } };
    const answer = await ask();
    expect(answer).toMatchObject({
      status: 502,
      body: { error: expect.stringMatching(/^Stripe did not list its balance transactions: /) },
    });
  });
});
