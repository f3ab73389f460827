import { type DomainEvent, type EventType, readEvent } from '@qrshirt/contracts';
import type { EventStore } from '@qrshirt/core';

/** One payment's money in a period, in cents, as the ledger or the processor counts it. */
export interface PaymentMoney {
  gross: number;
  /** Refunds less the ones that failed. */
  refunds: number;
  /** Disputed funds withdrawn less those given back. */
  disputes: number;
  /** The processor's fees on its balance transactions (processing, disputes). */
  fees: number;
  /** The platform's share (Stripe's application fees). */
  platformFees: number;
}

const paymentFigures = ['gross', 'refunds', 'disputes', 'fees', 'platformFees'] as const;

export interface ReconcileWindow {
  /** Inclusive, in ms since the epoch. */
  from: number;
  to: number;
}

/** An id, or the object Stripe expanded in its place. */
type Expandable = string | { id: string } | null | undefined;

/** A balance transaction as the processor lists it with its source expanded: the fields compared. */
export interface ProcessorBalanceTransaction {
  id: string;
  type: string;
  amount: number;
  fee: number;
  fee_details: readonly { type: string; amount: number }[];
  source: string | { id: string; object?: string; payment_intent?: Expandable } | null;
}

/** A Connect transfer as the processor lists it. */
export interface ProcessorTransfer {
  id: string;
  amount: number;
  destination: Expandable;
}

/**
 * What the processor's books say of a period: its balance transactions and its transfers to
 * connected accounts, created in the window. The gateway fills it with Stripe's API.
 */
export interface ProcessorBooks {
  balanceTransactions(this: void, window: ReconcileWindow): AsyncIterable<ProcessorBalanceTransaction>;
  transfers(this: void, window: ReconcileWindow): AsyncIterable<ProcessorTransfer>;
}

export type Difference =
  | { subject: 'payment'; paymentId: string; figure: keyof PaymentMoney; ledger: number; processor: number }
  | {
      /** Transfers to one connected account, the charity's whose payouts it holds (null: no charity of ours). */
      subject: 'charity';
      account: string;
      charityId: string | null;
      figure: 'transfers';
      ledger: number;
      processor: number;
    };

export interface Reconciliation {
  /** Payments either side names in the period. */
  payments: number;
  /** Connected accounts either side transferred to in the period. */
  accounts: number;
  /** Sorted: payments by id, then accounts by id. */
  differences: Difference[];
  /** Balance transactions of no payment (payouts, transfers, Stripe's own fees), not compared. */
  others: number;
}

const ledgerTypes: readonly EventType[] = [
  'DonationConfirmed',
  'DonationRefunded',
  'DonationRestored',
  'DonationFeeCharged',
  'DonationMovementRecorded',
  'CharityPayoutAccountOpened',
];

const noMoney = (): PaymentMoney => ({ gross: 0, refunds: 0, disputes: 0, fees: 0, platformFees: 0 });

const idOf = (value: Expandable): string | null => (typeof value === 'string' ? value : (value?.id ?? null));

/** What the ledger says of a period: each payment's money, and what was transferred to each account. */
interface LedgerBooks {
  payments: Map<string, PaymentMoney>;
  transfers: Map<string, number>;
  /** Each fee's balance transaction, by its id: the payment it was charged on. */
  feeTransactions: Map<string, string>;
  /** Each connected account's charity. */
  charities: Map<string, string>;
}

/**
 * The ledger's money per processor payment (`donationId`: a Stripe PaymentIntent) in the window,
 * each movement and fee on the processor's date, and its transfers per connected account, for one
 * mode: live money, or the processor's test money.
 */
async function readLedger(eventStore: EventStore, window: ReconcileWindow, live: boolean): Promise<LedgerBooks> {
  const books: LedgerBooks = {
    payments: new Map(),
    transfers: new Map(),
    feeTransactions: new Map(),
    charities: new Map(),
  };
  const inWindow = (at: string) => {
    const time = Date.parse(at);
    return time >= window.from && time <= window.to;
  };
  const money = (paymentId: string) => {
    const found = books.payments.get(paymentId) ?? noMoney();
    books.payments.set(paymentId, found);
    return found;
  };
  // A transfer fact names no mode: its payment's confirmation, read anywhere in the log, does.
  const paymentModes = new Map<string, boolean>();
  const transfers: { paymentId: string; account: string; cents: number }[] = [];
  const head = await eventStore.headPosition();
  let after = 0;
  while (after < head) {
    const page = await eventStore.readAll({ after, maxCount: 1_000, eventTypes: ledgerTypes });
    for (const stored of page) {
      if (stored.globalPosition > head) break;
      let event: DomainEvent;
      try {
        event = readEvent(stored.type, stored.data, stored.metadata);
      } catch {
        // Skipped as the projectors and the replay skip it: counting it would disagree with them.
        continue;
      }
      switch (event.type) {
        case 'CharityPayoutAccountOpened':
          books.charities.set(event.data.accountId, event.data.charityId);
          break;
        case 'DonationMovementRecorded': {
          const { movement, movedAt, donationId } = event.data;
          if (movement.kind === 'transfer' && inWindow(movedAt)) {
            transfers.push({ paymentId: donationId, account: movement.destination, cents: movement.amountCents });
          }
          break;
        }
        case 'DonationFeeCharged': {
          const { donationId, balanceTransactionId, to, amountCents, at } = event.data;
          books.feeTransactions.set(balanceTransactionId, donationId);
          if (event.data.live !== live || !inWindow(at)) break;
          money(donationId)[to === 'processor' ? 'fees' : 'platformFees'] += amountCents;
          break;
        }
        case 'DonationConfirmed':
        case 'DonationRefunded':
        case 'DonationRestored': {
          const { donationId, amountCents, at } = event.data;
          const paidLive = event.data.live !== false;
          if (event.type === 'DonationConfirmed') paymentModes.set(donationId, paidLive);
          if (paidLive !== live || !inWindow(at)) break;
          if (event.type === 'DonationConfirmed') money(donationId).gross += amountCents;
          else {
            const sign = event.type === 'DonationRefunded' ? 1 : -1;
            money(donationId)[event.data.disputeId === undefined ? 'refunds' : 'disputes'] += sign * amountCents;
          }
          break;
        }
        default:
          break;
      }
    }
    const last = page.at(-1);
    after = last === undefined || page.length < 1_000 ? head : last.globalPosition;
  }
  for (const { paymentId, account, cents } of transfers) {
    if (paymentModes.get(paymentId) !== live) continue;
    books.transfers.set(account, (books.transfers.get(account) ?? 0) + cents);
  }
  return books;
}

/** Which of a payment's figures a balance transaction moves; null: it is no payment's. */
function figureOf(transaction: ProcessorBalanceTransaction): keyof PaymentMoney | null {
  switch (transaction.type) {
    case 'charge':
    case 'payment':
      return 'gross';
    case 'refund':
    case 'payment_refund':
    case 'refund_failure':
    case 'payment_failure_refund':
      return 'refunds';
    case 'adjustment':
      return typeof transaction.source === 'object' && transaction.source?.object === 'dispute' ? 'disputes' : null;
    case 'application_fee':
    case 'application_fee_refund':
      return 'platformFees';
    default:
      return null;
  }
}

/** What the processor's balance transactions say of each payment in the window. */
async function readProcessor(
  processor: ProcessorBooks,
  window: ReconcileWindow,
  feeTransactions: ReadonlyMap<string, string>,
): Promise<{ payments: Map<string, PaymentMoney>; others: number }> {
  const payments = new Map<string, PaymentMoney>();
  let others = 0;
  for await (const transaction of processor.balanceTransactions(window)) {
    const figure = figureOf(transaction);
    const source = typeof transaction.source === 'object' ? transaction.source : null;
    // An application fee names its charge, not the payment: the ledger's fee of the same balance
    // transaction does, and one the ledger lacks is shown under the fee's own id.
    const paymentId =
      figure === 'platformFees'
        ? (feeTransactions.get(transaction.id) ?? idOf(transaction.source))
        : idOf(source?.payment_intent);
    if (figure === null || paymentId === null) {
      others++;
      continue;
    }
    const money = payments.get(paymentId) ?? noMoney();
    payments.set(paymentId, money);
    if (figure === 'platformFees') {
      money.platformFees += transaction.amount;
      continue;
    }
    // Refunds and withdrawals are negative amounts, their failures and reinstatements positive.
    money[figure] += figure === 'gross' ? transaction.amount : -transaction.amount;
    // A direct charge's fee holds the platform's share too, which its application fee counts.
    const platformShare = transaction.fee_details
      .filter((detail) => detail.type === 'application_fee')
      .reduce((sum, detail) => sum + detail.amount, 0);
    money.fees += transaction.fee - platformShare;
  }
  return { payments, others };
}

/**
 * The ledger beside the processor's books for a period, in one mode (live money or test money):
 * every figure of every payment on which they disagree (money, the processor's fees, the
 * platform's share), and the transfers to every connected account. Each movement is taken on the
 * processor's date on both sides, so a closed period compares the same whenever it is run.
 */
export async function reconcileWithProcessor({
  eventStore,
  processor,
  window,
  live,
}: {
  eventStore: EventStore;
  processor: ProcessorBooks;
  window: ReconcileWindow;
  live: boolean;
}): Promise<Reconciliation> {
  const ledger = await readLedger(eventStore, window, live);
  const { payments, others } = await readProcessor(processor, window, ledger.feeTransactions);
  const transfers = new Map<string, number>();
  for await (const transfer of processor.transfers(window)) {
    const account = idOf(transfer.destination);
    if (account !== null) transfers.set(account, (transfers.get(account) ?? 0) + transfer.amount);
  }

  const differences: Difference[] = [];
  const paymentIds = [...new Set([...ledger.payments.keys(), ...payments.keys()])].sort();
  for (const paymentId of paymentIds) {
    const ours = ledger.payments.get(paymentId) ?? noMoney();
    const theirs = payments.get(paymentId) ?? noMoney();
    for (const figure of paymentFigures) {
      if (ours[figure] !== theirs[figure]) {
        differences.push({ subject: 'payment', paymentId, figure, ledger: ours[figure], processor: theirs[figure] });
      }
    }
  }
  const accounts = [...new Set([...ledger.transfers.keys(), ...transfers.keys()])].sort();
  for (const account of accounts) {
    const [ours, theirs] = [ledger.transfers.get(account) ?? 0, transfers.get(account) ?? 0];
    if (ours === theirs) continue;
    const charityId = ledger.charities.get(account) ?? null;
    differences.push({ subject: 'charity', account, charityId, figure: 'transfers', ledger: ours, processor: theirs });
  }
  return { payments: paymentIds.length, accounts: accounts.length, differences, others };
}
