import { type IncomingMessage, type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type EventData, type EventType, eventMetadata } from '@qrshirt/contracts';
import { createSqliteEventStore } from '@qrshirt/sqlite';
import { runToEnd } from '@qrshirt/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const script = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../reconcile.ts');
const event = <T extends EventType>(type: T, data: EventData<T>) => ({ type, data, metadata: eventMetadata(type) });
const at = (day: number) => `2026-03-0${day}T10:00:00.000Z`;
const seconds = (day: number) => Date.parse(at(day)) / 1000;

/** Balance transactions as Stripe lists them with `expand[]=data.source`. */
const charge = (paymentIntent: string, amount: number, day: number) => ({
  id: `txn_ch_${paymentIntent}`,
  object: 'balance_transaction',
  type: 'charge',
  amount,
  fee: Math.round(amount * 0.029) + 30,
  net: amount,
  created: seconds(day),
  source: { id: `ch_${paymentIntent}`, object: 'charge', payment_intent: paymentIntent },
});
const refund = (paymentIntent: string, amount: number, day: number, failed = false) => ({
  id: `txn_re_${paymentIntent}_${failed}`,
  object: 'balance_transaction',
  type: failed ? 'refund_failure' : 'refund',
  amount: failed ? amount : -amount,
  fee: 0,
  net: failed ? amount : -amount,
  created: seconds(day),
  source: { id: `re_${paymentIntent}`, object: 'refund', payment_intent: paymentIntent },
});
const payout = {
  id: 'txn_po_1',
  object: 'balance_transaction',
  type: 'payout',
  amount: -5000,
  fee: 0,
  net: -5000,
  created: seconds(5),
  source: { id: 'po_1', object: 'payout' },
};

/** A stand-in for Stripe's `GET /v1/balance_transactions`: one page, and the queries it was asked. */
async function startStripeStandIn(transactions: () => object[]) {
  const asked: URLSearchParams[] = [];
  const server: Server = createServer((req: IncomingMessage, res) => {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    if (req.method !== 'GET' || url.pathname !== '/v1/balance_transactions') {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not here"}}');
      return;
    }
    asked.push(url.searchParams);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ object: 'list', url: '/v1/balance_transactions', has_more: false, data: transactions() }));
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
  let stripeSays: object[] = [];

  const run = (args: string[]) =>
    runToEnd({
      name: 'reconcile',
      entry: script,
      args,
      env: {
        DATA_DIR: dataDir,
        EVENTSTORE_URL: '',
        STRIPE_SECRET_KEY: 'sk_live_reconcile',
        STRIPE_API_URL: stripe.url,
      },
    });

  beforeAll(async () => {
    stripe = await startStripeStandIn(() => stripeSays);
    dataDir = await mkdtemp(path.join(tmpdir(), 'qr-reconcile-'));
    const eventStore = createSqliteEventStore({ path: path.join(dataDir, 'events.sqlite'), synchronous: 'NORMAL' });
    const money = { fundraiserId: 'f-1', charityId: 'c-1', currency: 'USD', live: true } as const;
    // $60 paid on the 2nd, $20 of it refunded on the 3rd; $25 paid on the 2nd; test money apart.
    await eventStore.appendToStream('processor-donation-pi_a', [
      event('DonationConfirmed', { ...money, donationId: 'pi_a', amountCents: 6000, reportId: null, at: at(2) }),
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
    ]);
    await eventStore.close();
  });
  afterAll(async () => {
    await stripe?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it("exits 0 when every payment's figures agree, and asks Stripe for the period's transactions", async () => {
    stripeSays = [charge('pi_a', 6000, 2), refund('pi_a', 2000, 3), charge('pi_b', 2500, 2), payout];
    const result = await run(['--from', '2026-03-01', '--to', '2026-03-05']);
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe(
      "2 payments, 0 differences; Stripe's fees on them 3.07; 1 other balance transactions (payouts, transfers, fees) not compared\n",
    );
    expect(result.status).toBe(0);
    const [query] = stripe.asked.slice(-1);
    expect(Object.fromEntries(query!)).toMatchObject({
      'created[gte]': String(seconds(1) - 36_000),
      'created[lte]': String(Math.floor((Date.parse('2026-03-05T00:00:00.000Z') + 86_399_999) / 1000)),
      'expand[0]': 'data.source',
    });
  });

  it('exits 1 naming each difference: a refund Stripe has that the ledger lacks, a payment it never saw', async () => {
    stripeSays = [
      charge('pi_a', 6000, 2),
      refund('pi_a', 2000, 3),
      refund('pi_b', 500, 3),
      charge('pi_b', 2500, 2),
      charge('pi_other', 700, 4),
    ];
    const result = await run(['--from', '2026-03-01', '--to', '2026-03-05']);
    expect(result.stdout.split('\n')).toEqual([
      'pi_b refunds: ledger 0.00, Stripe 5.00',
      'pi_other gross: ledger 0.00, Stripe 7.00',
      expect.stringMatching(/^3 payments, 2 differences;/),
      '',
    ]);
    expect(result.status).toBe(1);
  });

  it('takes each movement on its own date: a refund after the period is not in it', async () => {
    stripeSays = [charge('pi_a', 6000, 2), charge('pi_b', 2500, 2)];
    const result = await run(['--from', '2026-03-01', '--to', '2026-03-02']);
    expect(result.stdout).toMatch(/^2 payments, 0 differences;/);
    expect(result.status).toBe(0);
  });

  it('refuses a missing period with exit code 2', async () => {
    const result = await run(['--from', '2026-03-01']);
    expect(result).toMatchObject({ status: 2, stdout: '' });
    expect(result.stderr).toMatch(/--from and --to need a UTC day or an ISO instant/);
  });
});
