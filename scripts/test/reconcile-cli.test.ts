import { type IncomingMessage, type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type EventData, type EventType, eventMetadata } from '@qrshirt/contracts';
import { createSqliteEventStore } from '@qrshirt/sqlite';
import { runToEnd, toolCommand } from '@qrshirt/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const event = <T extends EventType>(type: T, data: EventData<T>) => ({ type, data, metadata: eventMetadata(type) });
const at = (day: number) => `2026-03-0${day}T10:00:00.000Z`;
const seconds = (day: number) => Date.parse(at(day)) / 1000;
/** Stripe's card fee, 2.9% + 30¢. */
const cardFee = (amount: number) => Math.round(amount * 0.029) + 30;

/** Balance transactions as Stripe lists them with `expand[]=data.source`. */
const charge = (paymentIntent: string, amount: number, day: number, fee = cardFee(amount)) => ({
  id: `txn_ch_${paymentIntent}`,
  object: 'balance_transaction',
  type: 'charge',
  amount,
  fee,
  fee_details: [{ type: 'stripe_fee', amount: fee }],
  net: amount - fee,
  created: seconds(day),
  source: { id: `ch_${paymentIntent}`, object: 'charge', payment_intent: paymentIntent },
});
const refund = (paymentIntent: string, amount: number, day: number, failed = false) => ({
  id: `txn_re_${paymentIntent}_${failed}`,
  object: 'balance_transaction',
  type: failed ? 'refund_failure' : 'refund',
  amount: failed ? amount : -amount,
  fee: 0,
  fee_details: [],
  net: failed ? amount : -amount,
  created: seconds(day),
  source: { id: `re_${paymentIntent}`, object: 'refund', payment_intent: paymentIntent },
});
/** The platform's application fee: its source names the charge, not the PaymentIntent. */
const applicationFee = (paymentIntent: string, amount: number, day: number) => ({
  id: `txn_fee_${paymentIntent}`,
  object: 'balance_transaction',
  type: 'application_fee',
  amount,
  fee: 0,
  fee_details: [],
  net: amount,
  created: seconds(day),
  source: { id: `fee_${paymentIntent}`, object: 'application_fee', charge: `ch_${paymentIntent}` },
});
const moved = (type: 'payout' | 'transfer', id: string, amount: number, day: number) => ({
  id: `txn_${id}`,
  object: 'balance_transaction',
  type,
  amount: -amount,
  fee: 0,
  fee_details: [],
  net: -amount,
  created: seconds(day),
  source: { id, object: type },
});
const transfer = (id: string, amount: number, destination: string, day: number) => ({
  id,
  object: 'transfer',
  amount,
  amount_reversed: 0,
  destination,
  created: seconds(day),
  currency: 'usd',
});

/** A stand-in for Stripe's `GET /v1/balance_transactions` and `GET /v1/transfers`: one page each, and what it was asked. */
async function startStripeStandIn(books: () => { balance: object[]; transfers: object[] }) {
  const asked: { path: string; query: URLSearchParams }[] = [];
  const server: Server = createServer((req: IncomingMessage, res) => {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const lists: Record<string, () => object[]> = {
      '/v1/balance_transactions': () => books().balance,
      '/v1/transfers': () => books().transfers,
    };
    const list = lists[url.pathname];
    if (req.method !== 'GET' || !list) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not here"}}');
      return;
    }
    asked.push({ path: url.pathname, query: url.searchParams });
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ object: 'list', url: url.pathname, has_more: false, data: list() }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    asked,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('npm run reconcile, as a process', () => {
  let dataDir: string;
  let stripe: Awaited<ReturnType<typeof startStripeStandIn>>;
  let stripeSays = { balance: [] as object[], transfers: [] as object[] };

  const run = (args: string[]) =>
    runToEnd({
      name: 'reconcile',
      command: toolCommand('reconcile', args),
      env: {
        DATA_DIR: dataDir,
        EVENTSTORE_URL: '',
        STRIPE_SECRET_KEY: 'sk_live_reconcile',
        STRIPE_API_URL: stripe.url,
      },
    });

  /** What Stripe's books hold of the ledger below, when they agree. */
  const agreeing = () => ({
    balance: [
      charge('pi_a', 6000, 2),
      applicationFee('pi_a', 300, 2),
      moved('transfer', 'tr_a', 6000, 2),
      refund('pi_a', 2000, 3),
      charge('pi_b', 2500, 2),
      moved('transfer', 'tr_b', 2500, 2),
      moved('payout', 'po_1', 5000, 5),
    ],
    transfers: [transfer('tr_a', 6000, 'acct_c1', 2), transfer('tr_b', 2500, 'acct_c1', 2)],
  });

  beforeAll(async () => {
    stripe = await startStripeStandIn(() => stripeSays);
    dataDir = await mkdtemp(path.join(tmpdir(), 'qr-reconcile-'));
    const eventStore = createSqliteEventStore({ path: path.join(dataDir, 'events.sqlite'), synchronous: 'NORMAL' });
    await eventStore.appendToStream('charity-payout-account-c-1', [
      event('CharityPayoutAccountOpened', { charityId: 'c-1', accountId: 'acct_c1', live: true, at: at(1) }),
    ]);
    const money = { fundraiserId: 'f-1', charityId: 'c-1', currency: 'USD', live: true } as const;
    const fee = (donationId: string, to: 'processor' | 'platform', balanceTransactionId: string, amountCents: number) =>
      event('DonationFeeCharged', {
        ...money,
        donationId,
        balanceTransactionId,
        to,
        amountCents,
        donatedAt: at(2),
        at: at(2),
      });
    const transferred = (donationId: string, transferId: string, amountCents: number) =>
      event('DonationMovementRecorded', {
        donationId,
        movement: { kind: 'transfer', transferId, destination: 'acct_c1', amountCents },
        movedAt: at(2),
        at: at(2),
      });
    // $60 paid on the 2nd, Stripe's fee and the platform's $3 that day, $20 refunded on the 3rd;
    // $25 paid on the 2nd; both paid on to the charity's account; test money apart.
    await eventStore.appendToStream('processor-donation-pi_a', [
      event('DonationConfirmed', { ...money, donationId: 'pi_a', amountCents: 6000, reportId: null, at: at(2) }),
      transferred('pi_a', 'tr_a', 6000),
      fee('pi_a', 'processor', 'txn_ch_pi_a', cardFee(6000)),
      fee('pi_a', 'platform', 'txn_fee_pi_a', 300),
      event('DonationRefunded', {
        ...money,
        donationId: 'pi_a',
        amountCents: 2000,
        donatedAt: at(2),
        remainingCents: 4000,
        refundId: 're_pi_a',
        at: at(3),
      }),
    ]);
    await eventStore.appendToStream('processor-donation-pi_b', [
      event('DonationConfirmed', { ...money, donationId: 'pi_b', amountCents: 2500, reportId: null, at: at(2) }),
      transferred('pi_b', 'tr_b', 2500),
      fee('pi_b', 'processor', 'txn_ch_pi_b', cardFee(2500)),
    ]);
    await eventStore.appendToStream('processor-donation-pi_test', [
      event('DonationConfirmed', {
        ...money,
        live: false,
        donationId: 'pi_test',
        amountCents: 900,
        reportId: null,
        at: at(2),
      }),
      transferred('pi_test', 'tr_test', 900),
    ]);
    await eventStore.close();
  });
  afterAll(async () => {
    await stripe?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it("exits 0 when every payment's money and fees and every charity's transfers agree, asking Stripe for the period", async () => {
    stripeSays = agreeing();
    stripe.asked.length = 0;
    const result = await run(['--from', '2026-03-01', '--to', '2026-03-05']);
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe(
      '2 payments and 1 connected accounts compared, 0 differences; ' +
        "3 other balance transactions (payouts, transfers, Stripe's own fees) not compared\n",
    );
    expect(result.status).toBe(0);
    const period = {
      'created[gte]': String(seconds(1) - 36_000),
      'created[lte]': String(Math.floor((Date.parse('2026-03-05T00:00:00.000Z') + 86_399_999) / 1000)),
    };
    expect(stripe.asked.map(({ path: asked, query }) => [asked, Object.fromEntries(query)])).toEqual([
      ['/v1/balance_transactions', expect.objectContaining({ ...period, 'expand[0]': 'data.source' })],
      ['/v1/transfers', expect.objectContaining(period)],
    ]);
  });

  it('exits 1 naming each difference: a fee, a transfer, a refund the ledger lacks, a payment it never saw', async () => {
    const { balance, transfers } = agreeing();
    stripeSays = {
      balance: [
        ...balance.map((transaction) =>
          transaction.id === 'txn_ch_pi_a' ? charge('pi_a', 6000, 2, cardFee(6000) + 46) : transaction,
        ),
        refund('pi_b', 500, 3),
        charge('pi_other', 700, 4),
      ],
      transfers: [transfers[0]!, transfer('tr_b', 2000, 'acct_c1', 2), transfer('tr_x', 100, 'acct_elsewhere', 4)],
    };
    const result = await run(['--from', '2026-03-01', '--to', '2026-03-05']);
    expect(result.stdout.split('\n')).toEqual([
      'pi_a fees: ledger 2.04, Stripe 2.50',
      'pi_b refunds: ledger 0.00, Stripe 5.00',
      'pi_other gross: ledger 0.00, Stripe 7.00',
      'pi_other fees: ledger 0.00, Stripe 0.50',
      'charity c-1 acct_c1 transfers: ledger 85.00, Stripe 80.00',
      'charity (none of ours) acct_elsewhere transfers: ledger 0.00, Stripe 1.00',
      expect.stringMatching(/^3 payments and 2 connected accounts compared, 6 differences;/),
      '',
    ]);
    expect(result.status).toBe(1);
  });

  it("names a platform fee Stripe kept that the ledger lacks by the fee's own id", async () => {
    const { balance, transfers } = agreeing();
    stripeSays = { balance: [...balance, applicationFee('pi_b', 125, 2)], transfers };
    const result = await run(['--from', '2026-03-01', '--to', '2026-03-05']);
    expect(result.stdout.split('\n')[0]).toBe('fee_pi_b platformFees: ledger 0.00, Stripe 1.25');
    expect(result.status).toBe(1);
  });

  it('takes each movement on its own date: a refund after the period is not in it', async () => {
    stripeSays = { ...agreeing(), balance: agreeing().balance.filter(({ id }) => !id.startsWith('txn_re_')) };
    const result = await run(['--from', '2026-03-01', '--to', '2026-03-02']);
    expect(result.stdout).toMatch(/^2 payments and 1 connected accounts compared, 0 differences;/);
    expect(result.status).toBe(0);
  });

  it('refuses a missing period with exit code 2', async () => {
    const result = await run(['--from', '2026-03-01']);
    expect(result).toMatchObject({ status: 2, stdout: '' });
    expect(result.stderr).toMatch(/--from and --to need a UTC day or an ISO instant/);
  });
});
