/**
 * Reconciles the ledger with Stripe for a period:
 *   npm run -s reconcile -- --from DATE --to DATE
 * Lists Stripe's balance transactions of the period per payment (PaymentIntent) beside the
 * ledger's movements of the same period, prints every difference, and exits 1 on any (2 for bad
 * arguments or settings). The comparison is `ledgerByPayment` and `differences` in projections.
 */
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { createEventStoreDbEventStore } from '@qrshirt/eventstoredb';
import { type PaymentMoney, differences, ledgerByPayment, parseReplayDate } from '@qrshirt/projections';
import { createSqliteEventStore } from '@qrshirt/sqlite';
import Stripe from 'stripe';
import { replaySource } from './replay/replay-args';

const NAME = 'reconcile';
const usage = `Usage: npm run -s reconcile -- --from DATE --to DATE

Lists Stripe's balance transactions created in the period (payments, refunds, refund failures,
dispute withdrawals and reinstatements, per PaymentIntent) beside the ledger's movements dated in
the same period, prints every difference and Stripe's fees, and exits 1 on any difference.

DATE is a UTC day (2025-03-01) or an ISO instant with an offset; both ends are inclusive.
Reads DATA_DIR/events.sqlite (default ./data), or EventStoreDB when EVENTSTORE_URL is set, and
Stripe with STRIPE_SECRET_KEY (live keys: live money; test keys: test money), at STRIPE_API_URL
when set.
`;

function fail(message: string): never {
  console.error(`${NAME}: ${message} (see --help)`);
  process.exit(2);
}

let values: { from?: string; to?: string; help: boolean };
try {
  ({ values } = parseArgs({
    args: process.argv.slice(2),
    strict: true,
    options: {
      from: { type: 'string' },
      to: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  }));
} catch (error) {
  fail(String((error as Error).message).split('\n')[0]!);
}
if (values.help) {
  process.stdout.write(usage);
  process.exit(0);
}
const from = values.from === undefined ? undefined : parseReplayDate(values.from, 'start');
const to = values.to === undefined ? undefined : parseReplayDate(values.to, 'end');
if (from === undefined || to === undefined) fail('--from and --to need a UTC day or an ISO instant');
if (from > to) fail('--from is after --to');
const secretKey = process.env.STRIPE_SECRET_KEY?.trim();
if (!secretKey) fail('STRIPE_SECRET_KEY is not set');
const apiUrl = process.env.STRIPE_API_URL?.trim() ? new URL(process.env.STRIPE_API_URL.trim()) : undefined;
const stripe = new Stripe(secretKey, {
  ...(apiUrl && {
    host: apiUrl.hostname,
    port: Number(apiUrl.port || (apiUrl.protocol === 'http:' ? 80 : 443)),
    protocol: apiUrl.protocol === 'http:' ? 'http' : 'https',
  }),
});

const source = replaySource(process.env);
if (source.kind === 'sqlite' && !existsSync(source.file)) fail(`no event store at ${source.file}`);
const eventStore =
  source.kind === 'eventstoredb'
    ? createEventStoreDbEventStore({ connectionString: source.url })
    : createSqliteEventStore({ path: source.file });

/** The PaymentIntent a balance transaction's source (expanded) belongs to. */
function paymentOf(source: Stripe.BalanceTransaction['source']): string | null {
  if (source === null || typeof source === 'string') return null;
  const paymentIntent = (source as { payment_intent?: string | { id: string } | null }).payment_intent;
  return typeof paymentIntent === 'string' ? paymentIntent : (paymentIntent?.id ?? null);
}

/** Which of a payment's figures a balance transaction moves, and by how much (positive: more of it). */
function figureOf(transaction: Stripe.BalanceTransaction): [keyof PaymentMoney, number] | null {
  switch (transaction.type) {
    case 'charge':
    case 'payment':
      return ['gross', transaction.amount];
    case 'refund':
    case 'payment_refund':
    case 'refund_failure':
    case 'payment_failure_refund':
      // Refunds are negative amounts, their failures positive ones.
      return ['refunds', -transaction.amount];
    case 'adjustment':
      return (transaction.source as { object?: string } | null)?.object === 'dispute'
        ? ['disputes', -transaction.amount]
        : null;
    default:
      return null;
  }
}

const dollars = (cents: number) => `${cents < 0 ? '-' : ''}${(Math.abs(cents) / 100).toFixed(2)}`;

try {
  const processor = new Map<string, PaymentMoney>();
  let fees = 0;
  let others = 0;
  for await (const transaction of stripe.balanceTransactions.list({
    created: { gte: Math.floor(from / 1000), lte: Math.floor(to / 1000) },
    limit: 100,
    expand: ['data.source'],
  })) {
    const moved = figureOf(transaction);
    const paymentId = paymentOf(transaction.source);
    if (!moved || paymentId === null) {
      // Payouts, transfers to connected charities, Stripe's own fees: not a donation's money.
      others++;
      continue;
    }
    const money = processor.get(paymentId) ?? { gross: 0, refunds: 0, disputes: 0 };
    money[moved[0]] += moved[1];
    processor.set(paymentId, money);
    fees += transaction.fee;
  }
  const live = secretKey.startsWith('sk_live_') || secretKey.startsWith('rk_live_');
  const ledger = await ledgerByPayment(eventStore, { from, to }, live);
  const found = differences(ledger, processor);
  for (const { paymentId, figure, ledger: ours, processor: theirs } of found) {
    console.log(`${paymentId} ${figure}: ledger ${dollars(ours)}, Stripe ${dollars(theirs)}`);
  }
  const payments = new Set([...ledger.keys(), ...processor.keys()]).size;
  console.log(
    `${payments} payments, ${found.length} differences; Stripe's fees on them ${dollars(fees)}; ` +
      `${others} other balance transactions (payouts, transfers, fees) not compared`,
  );
  if (found.length > 0) process.exitCode = 1;
} catch (error) {
  console.error(`${NAME}: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 2;
} finally {
  await eventStore.close();
}
