import { createHash } from 'node:crypto';
import { type EventOf, isLiveMoney } from '@qrshirt/contracts';
import type { Decider } from '../kit/decider';
import { DONATION_LEDGER_STREAM_PREFIX } from '../kit/stream-prefixes';
import { parseAmountCents } from './donation-report-decider';

/** The processor took the payment (Stripe: a paid Checkout Session). */
export interface ConfirmDonation {
  type: 'ConfirmDonation';
  donationId: string;
  fundraiserId: string;
  /** The charity the payment was made to, fixed from now on. */
  charityId: string;
  /** Dollars, as the webhook gave them; parsed to cents by the widget's rule. */
  amount: unknown;
  reportId: string | null;
  /** Real money, or the processor's test money. */
  live: boolean;
  /** The processor's date of the payment. */
  paidAt: string;
  /** Where the donor wants its receipts (the address they gave the checkout); null: none. */
  receiptTo: string | null;
  at: string;
}

export type Movement = EventOf<'DonationMovementRecorded'>['data']['movement'];

/** A movement and the processor's date of it. */
export interface DatedMovement {
  movement: Movement;
  movedAt: string;
}

/**
 * What one message of the processor said about the payment's refunds, disputes, fees or transfer,
 * before or after the payment arrived: one movement, or several told at once (a charge's fees and
 * transfer, a dispute with its fee), recorded in one append, so none is kept without the others.
 */
export interface RecordMovements {
  type: 'RecordMovements';
  donationId: string;
  movements: readonly DatedMovement[];
  at: string;
}

export type ProcessorDonationCommand = ConfirmDonation | RecordMovements;
export type ProcessorDonationEvent =
  | EventOf<'DonationConfirmed'>
  | EventOf<'DonationRefunded'>
  | EventOf<'DonationRestored'>
  | EventOf<'DonationMovementRecorded'>
  | EventOf<'DonationReceiptAddressed'>
  | EventOf<'DonationFeeCharged'>;

interface Payment {
  fundraiserId: string;
  charityId: string | undefined;
  amountCents: number;
  reportId: string | null;
  live: boolean;
  paidAt: string;
}

export interface ProcessorDonationState {
  /** Null until the payment arrives: its refunds and disputes may come first. */
  payment: Payment | null;
  /** The latest word on each refund, dispute, fee and transfer, by `movementKey`. */
  movements: Record<string, DatedMovement>;
  /**
   * What each movement has taken away from the counted money so far, by the same keys: refunds
   * and disputes written before the ledger have no movement, and keep what they took.
   */
  applied: Record<string, number>;
  /** Where the donation's receipts go; null: nowhere (none given, or the donor was erased). */
  receiptTo: string | null;
  /** The fees booked (`DonationFeeCharged`), by the same keys. */
  charged: Record<string, true>;
}

/** Named by the processor's id, so a donation counts once whatever message brings it. */
export const processorDonationStreamName = (donationId: string): string =>
  `${DONATION_LEDGER_STREAM_PREFIX}${donationId}`;

const REFUNDED_TOTAL = 'refunded-total';

function movementKey(movement: Movement): string {
  switch (movement.kind) {
    case 'refund':
      return `refund:${movement.refundId}`;
    case 'dispute':
      return `dispute:${movement.disputeId}`;
    case 'refunded-total':
      return REFUNDED_TOTAL;
    case 'fee':
      return feeKey(movement.to, movement.balanceTransactionId);
    case 'transfer':
      return `transfer:${movement.transferId}`;
  }
}

// One balance transaction may carry the processor's fee and the platform's (a direct charge's does).
const feeKey = (to: string, balanceTransactionId: string): string => `fee:${to}:${balanceTransactionId}`;

/** Whether a movement moves the money raised (the rest are fees and transfers, beside it). */
const movesMoney = (movement: Movement): boolean => movement.kind !== 'fee' && movement.kind !== 'transfer';

const STATUS_RANK = { requires_action: 0, pending: 1, succeeded: 2, failed: 3, canceled: 3 } as const;

/**
 * A movement merged with the processor's earlier word on it: a refund's status only moves on
 * (pending, succeeded, then failed or canceled), a dispute's steps only add up, a running total
 * only grows. So the merge of the same words is the same in any order.
 */
function merged(earlier: Movement | undefined, next: Movement): Movement {
  if (!earlier || earlier.kind !== next.kind) return next;
  switch (next.kind) {
    case 'refund': {
      const before = earlier as typeof next;
      return STATUS_RANK[before.status] >= STATUS_RANK[next.status] ? before : next;
    }
    case 'dispute': {
      const before = earlier as typeof next;
      return { ...next, withdrawn: before.withdrawn || next.withdrawn, won: before.won || next.won };
    }
    case 'refunded-total': {
      const before = earlier as typeof next;
      if (before.refundedCents === null || next.refundedCents === null) return { ...next, refundedCents: null };
      return { ...next, refundedCents: Math.max(before.refundedCents, next.refundedCents) };
    }
    // A balance transaction or a transfer is never changed: the first word on it is the word.
    case 'fee':
    case 'transfer':
      return earlier;
  }
}

/** Movements are flat: the same fields with the same values, whatever order the keys were written in. */
const canonical = (movement: Movement): string => JSON.stringify(movement, Object.keys(movement).sort());
const sameMovement = (a: Movement, b: Movement): boolean => canonical(a) === canonical(b);

/**
 * What each movement takes away from the payment, from the facts alone: a refund while it is not
 * failed or canceled, a dispute's funds while withdrawn and not won. Refunds named one by one
 * make a running total (a processor that names none) redundant. Never more than the payment, in
 * the order of the processor's dates, so the split is the same whatever order the facts came in.
 */
function targets(state: ProcessorDonationState, payment: Payment): Map<string, number> {
  // The earlier movement took the money first; what was taken before the ledger, first of all.
  const dated = (key: string): string => state.movements[key]?.movedAt ?? '';
  const moving = Object.keys(state.movements).filter((key) => movesMoney(state.movements[key]!.movement));
  const keys = [...new Set([...moving, ...Object.keys(state.applied)])].sort((a, b) =>
    dated(a) === dated(b) ? (a < b ? -1 : 1) : dated(a) < dated(b) ? -1 : 1,
  );
  const refundsNamed = keys.some((key) => state.movements[key]?.movement.kind === 'refund');
  let left = payment.amountCents;
  const result = new Map<string, number>();
  for (const key of keys) {
    const movement = state.movements[key]?.movement;
    let cents: number;
    // Refunds named one by one take over from a running total, written before the ledger or not.
    if (key === REFUNDED_TOTAL && refundsNamed) cents = 0;
    else if (!movement) cents = state.applied[key] ?? 0;
    else if (movement.kind === 'refund') cents = STATUS_RANK[movement.status] <= 2 ? movement.amountCents : 0;
    else if (movement.kind === 'dispute') cents = movement.withdrawn && !movement.won ? movement.amountCents : 0;
    else if (movement.kind === 'refunded-total') cents = movement.refundedCents ?? payment.amountCents;
    else cents = 0;
    cents = Math.min(cents, left);
    left -= cents;
    result.set(key, cents);
  }
  return result;
}

/**
 * The money events that bring what each movement has taken away to what the facts say it should:
 * each on the processor's date of its movement (what was taken before the ledger, which has none,
 * on the date of the step that changes it), naming the payment's charity.
 */
function moneyEvents(state: ProcessorDonationState, donationId: string, at: string): ProcessorDonationEvent[] {
  const payment = state.payment;
  if (!payment) return [];
  let remaining = payment.amountCents - Object.values(state.applied).reduce((sum, cents) => sum + cents, 0);
  const events: ProcessorDonationEvent[] = [];
  // Money back first: a donation never looks emptier in between than it ends.
  const changes = [...targets(state, payment)]
    .map(([key, cents]) => ({ key, change: cents - (state.applied[key] ?? 0) }))
    .filter(({ change }) => change !== 0)
    .sort((a, b) => a.change - b.change);
  for (const { key, change } of changes) {
    remaining -= change;
    const movement = state.movements[key];
    const data = {
      donationId,
      fundraiserId: payment.fundraiserId,
      ...(payment.charityId !== undefined && { charityId: payment.charityId }),
      amountCents: Math.abs(change),
      currency: 'USD' as const,
      donatedAt: payment.paidAt,
      remainingCents: remaining,
      ...(movement?.movement.kind === 'refund' && { refundId: movement.movement.refundId }),
      ...(movement?.movement.kind === 'dispute' && { disputeId: movement.movement.disputeId }),
      live: payment.live,
      at: movement?.movedAt ?? at,
    };
    events.push(change > 0 ? { type: 'DonationRefunded', data } : { type: 'DonationRestored', data });
  }
  return [...events, ...feeEvents(state, payment, donationId)];
}

/** Each fee recorded and not booked yet, once the payment says whose it is, by date (then key). */
function feeEvents(state: ProcessorDonationState, payment: Payment, donationId: string): ProcessorDonationEvent[] {
  const events: ProcessorDonationEvent[] = [];
  const byDate = (a: string, b: string): number => {
    const [dateA, dateB] = [state.movements[a]!.movedAt, state.movements[b]!.movedAt];
    return dateA === dateB ? (a < b ? -1 : 1) : dateA < dateB ? -1 : 1;
  };
  for (const key of Object.keys(state.movements).sort(byDate)) {
    const { movement, movedAt } = state.movements[key]!;
    if (movement.kind !== 'fee' || state.charged[key]) continue;
    events.push({
      type: 'DonationFeeCharged',
      data: {
        donationId,
        fundraiserId: payment.fundraiserId,
        ...(payment.charityId !== undefined && { charityId: payment.charityId }),
        balanceTransactionId: movement.balanceTransactionId,
        to: movement.to,
        amountCents: movement.amountCents,
        currency: 'USD',
        donatedAt: payment.paidAt,
        live: payment.live,
        at: movedAt,
      },
    });
  }
  return events;
}

/** The address the donor gave for receipts, recorded with the payment it came with. */
const receiptAddress = ({ donationId, receiptTo, at }: ConfirmDonation): ProcessorDonationEvent[] =>
  receiptTo === null ? [] : [{ type: 'DonationReceiptAddressed', data: { donationId, email: receiptTo, at } }];

/**
 * Records each movement the processor's word changes (a balance transaction that charged nothing
 * is no movement), then the money and fee events that follow from all of them.
 */
function recordMovements(
  state: ProcessorDonationState,
  donationId: string,
  movements: readonly DatedMovement[],
  at: string,
): ProcessorDonationEvent[] {
  const recorded: ProcessorDonationEvent[] = [];
  let next = state;
  for (const { movement: told, movedAt } of movements) {
    if (told.kind === 'fee' && told.amountCents === 0) continue;
    const earlier = next.movements[movementKey(told)];
    const movement = merged(earlier?.movement, told);
    if (earlier && sameMovement(earlier.movement, movement)) continue;
    const event: ProcessorDonationEvent = {
      type: 'DonationMovementRecorded',
      data: { donationId, movement, movedAt, at },
    };
    recorded.push(event);
    next = processorDonationDecider.evolve(next, event);
  }
  if (recorded.length === 0) return [];
  return [...recorded, ...moneyEvents(next, donationId, movements[0]!.movedAt)];
}

/**
 * One processor payment per stream, as a ledger. The payment counts once (a repeat, under any
 * webhook id, changes nothing); each refund, dispute, fee or transfer is recorded as the
 * processor words it, before or after the payment, and the money and fees it moves follow from
 * the facts, so any delivery order, repeat or retry ends at the same figures. Nothing takes away
 * more than was paid; a fee is booked once, beside the money raised.
 */
export const processorDonationDecider: Decider<
  ProcessorDonationCommand,
  ProcessorDonationEvent,
  ProcessorDonationState
> = {
  initialState: () => ({ payment: null, movements: {}, applied: {}, charged: {}, receiptTo: null }),

  decide(command, state) {
    switch (command.type) {
      case 'ConfirmDonation': {
        const amountCents = parseAmountCents(command.amount);
        if (state.payment) return [];
        const confirmed: ProcessorDonationEvent = {
          type: 'DonationConfirmed',
          data: {
            donationId: command.donationId,
            fundraiserId: command.fundraiserId,
            charityId: command.charityId,
            amountCents,
            currency: 'USD',
            reportId: command.reportId,
            live: command.live,
            at: command.paidAt,
          },
        };
        const paid = processorDonationDecider.evolve(state, confirmed);
        return [confirmed, ...receiptAddress(command), ...moneyEvents(paid, command.donationId, command.paidAt)];
      }
      case 'RecordMovements':
        return recordMovements(state, command.donationId, command.movements, command.at);
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'DonationConfirmed': {
        if (state.payment) return state;
        const { fundraiserId, charityId, amountCents, reportId, at } = event.data;
        return {
          ...state,
          payment: { fundraiserId, charityId, amountCents, reportId, live: isLiveMoney(event.data), paidAt: at },
        };
      }
      case 'DonationMovementRecorded': {
        const { movement, movedAt } = event.data;
        return { ...state, movements: { ...state.movements, [movementKey(movement)]: { movement, movedAt } } };
      }
      case 'DonationRefunded':
      case 'DonationRestored': {
        const { amountCents, refundId, disputeId } = event.data;
        const key =
          refundId !== undefined
            ? `refund:${refundId}`
            : disputeId !== undefined
              ? `dispute:${disputeId}`
              : REFUNDED_TOTAL;
        const change = event.type === 'DonationRefunded' ? amountCents : -amountCents;
        return { ...state, applied: { ...state.applied, [key]: (state.applied[key] ?? 0) + change } };
      }
      case 'DonationReceiptAddressed':
        return { ...state, receiptTo: event.data.email };
      case 'DonationFeeCharged': {
        const key = feeKey(event.data.to, event.data.balanceTransactionId);
        return { ...state, charged: { ...state.charged, [key]: true } };
      }
    }
  },
};

// A processor's messages, each handled once: the delivery's own stream, beside the donation's.

export interface RecordWebhook {
  type: 'RecordWebhook';
  webhookId: string;
  webhookType: string;
  donationId: string;
  at: string;
}

export type DonationWebhookEvent = EventOf<'DonationWebhookReceived'>;
export type DonationWebhookState = { webhookType: string; donationId: string } | null;

/** Hashed: a webhook id is whatever text the processor chose, a stream name is not. */
export const donationWebhookStreamName = (webhookId: string): string =>
  `donation-webhook-${createHash('sha256').update(webhookId).digest('hex')}`;

/** Which webhook messages were handled: by Standard Webhooks, a message id is handled once. */
export const donationWebhookDecider: Decider<RecordWebhook, DonationWebhookEvent, DonationWebhookState> = {
  initialState: () => null,

  decide(command, state) {
    if (state) return [];
    return [
      {
        type: 'DonationWebhookReceived',
        data: {
          webhookId: command.webhookId,
          type: command.webhookType,
          donationId: command.donationId,
          at: command.at,
        },
      },
    ];
  },

  evolve(state, event) {
    return state ?? { webhookType: event.data.type, donationId: event.data.donationId };
  },
};
