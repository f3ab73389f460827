import { isLiveMoney } from './donations';
import type { DomainEvent, EventType } from './definitions';

/** Events that move the money raised: confirmations, refunds, and the donations of old logs. */
export const confirmedMoneyEvents = [
  'DonationConfirmed',
  'DonationRefunded',
  'DonationRestored',
  'DonationRecorded',
] as const satisfies readonly EventType[];
/** Events that move the money awaiting the processor's confirmation. */
export const reportedMoneyEvents = [
  'DonationReported',
  'DonationReportConfirmed',
  'DonationReportDropped',
] as const satisfies readonly EventType[];

/**
 * How long a report awaits confirmation: after a day a processor that was going to confirm it has
 * (Stripe's Checkout Sessions expire in 24 h), and an unsettled report is more likely a page that
 * never paid, or a forgery, than money on its way.
 */
export const REPORT_AWAITS_MS = 24 * 60 * 60_000;

export interface ConfirmedChange {
  fundraiserId: string;
  /** The charity the donation was made to, when the event names it (events of the ledger do). */
  charityId?: string;
  /** The instant whose day the change belongs to: each movement's own, as the processor dates it. */
  at: string;
  /** 0 for a refund that leaves part of its donation counting, or money back to one still counting. */
  donations: 1 | 0 | -1;
  amountCents: number;
  /** Real money; test money is counted apart from it (`testDonations`, `testAmountCents`), never added. */
  live: boolean;
  /** What moved the money, for a statement: a payment, or a refund's or a dispute's money (taken or given back). */
  movement: 'payment' | 'refund' | 'dispute';
}

/**
 * What an event changes in the confirmed figures (donations and money raised), the same for every
 * reader: the fundraisers', overview and funnel projectors, the replay; so it is the events' own
 * rule, not one feature's. Null for every other event. A report is not money raised.
 * `DonationRecorded`, written before the processor confirmed donations, counts as confirmed (see
 * its contract for why).
 */
export function confirmedChange(event: DomainEvent): ConfirmedChange | null {
  switch (event.type) {
    case 'DonationConfirmed': {
      const { fundraiserId, charityId, amountCents, at } = event.data;
      return {
        fundraiserId,
        charityId,
        at,
        donations: 1,
        amountCents,
        live: isLiveMoney(event.data),
        movement: 'payment',
      };
    }
    case 'DonationRecorded': {
      const { fundraiserId, amountCents, at } = event.data;
      return { fundraiserId, at, donations: 1, amountCents, live: true, movement: 'payment' };
    }
    case 'DonationRefunded': {
      const { fundraiserId, charityId, amountCents, remainingCents = 0, at } = event.data;
      return {
        fundraiserId,
        charityId,
        at,
        donations: remainingCents > 0 ? 0 : -1,
        amountCents: -amountCents,
        live: isLiveMoney(event.data),
        movement: event.data.disputeId === undefined ? 'refund' : 'dispute',
      };
    }
    case 'DonationRestored': {
      const { fundraiserId, charityId, amountCents, remainingCents, at } = event.data;
      return {
        fundraiserId,
        charityId,
        at,
        donations: remainingCents === amountCents ? 1 : 0,
        amountCents,
        live: isLiveMoney(event.data),
        movement: event.data.disputeId === undefined ? 'refund' : 'dispute',
      };
    }
    default:
      return null;
  }
}

/**
 * What an event changes in the cents a fundraiser's page reported and no processor settled yet,
 * filed under the instant of the report (`reportedAt`), as the report stops awaiting 24 h after it.
 */
export function reportedChange(event: DomainEvent): { fundraiserId: string; cents: number; reportedAt: string } | null {
  switch (event.type) {
    case 'DonationReported': {
      const { fundraiserId, amountCents, confirmedBy, awaiting = confirmedBy === null, at } = event.data;
      return awaiting ? { fundraiserId, cents: amountCents, reportedAt: at } : null;
    }
    case 'DonationReportConfirmed':
    case 'DonationReportDropped': {
      // Settled by a version before expiry: the report's own instant is not known, this one is near it.
      const { fundraiserId, pendingCents, reportedAt = event.data.at } = event.data;
      return pendingCents > 0 ? { fundraiserId, cents: -pendingCents, reportedAt } : null;
    }
    default:
      return null;
  }
}
