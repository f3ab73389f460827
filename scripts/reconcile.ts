/**
 * Reconciles the ledger with Stripe for a period:
 *   npm run -s reconcile -- --from DATE --to DATE
 * Lists Stripe's balance transactions of the period per payment (PaymentIntent) and its Connect
 * transfers per charity beside the ledger's movements, fees and transfers of the same period,
 * prints every difference, and exits 1 on any (2 for bad arguments or settings). The comparison is
 * `reconcileWithProcessor` in projections, which the admin area's GET /api/admin/reconcile shares.
 */
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { createEventStoreDbEventStore } from '@qrshirt/eventstoredb';
import { createStripeBooks, createStripeClient } from '@qrshirt/gateway';
import { type Difference, parseReplayDate, reconcileWithProcessor } from '@qrshirt/projections';
import { createSqliteEventStore } from '@qrshirt/sqlite';
import { replaySource } from './replay/replay-args';

const NAME = 'reconcile';
const usage = `Usage: npm run -s reconcile -- --from DATE --to DATE

Lists Stripe's balance transactions created in the period (payments, refunds, refund failures,
dispute withdrawals and reinstatements, their fees, the platform's application fees, per
PaymentIntent) and its Connect transfers (per charity's connected account) beside the ledger's
movements, fees and transfers dated in the same period, prints every difference, and exits 1 on
any difference.

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
const books = createStripeBooks(createStripeClient({ secretKey, apiUrl }));

const source = replaySource(process.env);
if (source.kind === 'sqlite' && !existsSync(source.file)) fail(`no event store at ${source.file}`);
const eventStore =
  source.kind === 'eventstoredb'
    ? createEventStoreDbEventStore({ connectionString: source.url })
    : createSqliteEventStore({ path: source.file });

const dollars = (cents: number) => `${cents < 0 ? '-' : ''}${(Math.abs(cents) / 100).toFixed(2)}`;

const subjectOf = (difference: Difference): string =>
  difference.subject === 'payment'
    ? difference.paymentId
    : `charity ${difference.charityId ?? '(none of ours)'} ${difference.account}`;

try {
  const live = secretKey.startsWith('sk_live_') || secretKey.startsWith('rk_live_');
  const found = await reconcileWithProcessor({ eventStore, processor: books, window: { from, to }, live });
  for (const difference of found.differences) {
    const { figure, ledger, processor } = difference;
    console.log(`${subjectOf(difference)} ${figure}: ledger ${dollars(ledger)}, Stripe ${dollars(processor)}`);
  }
  console.log(
    `${found.payments} payments and ${found.accounts} connected accounts compared, ${found.differences.length} differences; ` +
      `${found.others} other balance transactions (payouts, transfers, Stripe's own fees) not compared`,
  );
  if (found.differences.length > 0) process.exitCode = 1;
} catch (error) {
  console.error(`${NAME}: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 2;
} finally {
  await eventStore.close();
}
