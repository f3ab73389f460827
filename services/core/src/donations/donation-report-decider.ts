import { createHash } from 'node:crypto';
import type { EventOf } from '@qrshirt/contracts';
import { type Decider, DomainError } from '../kit/decider';

/** The product created a processor's checkout for the report the page will file once paid. */
export interface RecordCheckout {
  type: 'RecordCheckout';
  reportId: string;
  fundraiserId: string;
  /** The charity the checkout pays. */
  charityId: string;
  amountCents: number;
  sessionId: string;
  /** Made with the processor's live keys. */
  live: boolean;
  at: string;
}

/** The widget's report: POST /api/fundraisers/{id}/donate. */
export interface ReportDonation {
  type: 'ReportDonation';
  reportId: string;
  fundraiserId: string;
  /** As the widget sent it: parsed here by the spec's rule (see parseAmountCents). */
  amount: unknown;
  idempotencyKey: string | null;
  /** Where the donation was reported from, e.g. 'widget'. */
  source: string;
  /**
   * Whether only a report a checkout of the product backs may await confirmation: while Stripe
   * takes donations, a report of any other kind is anyone's word.
   */
  needsCheckout: boolean;
  at: string;
}

/** A processor's confirmed donation named this report. */
export interface ConfirmReport {
  type: 'ConfirmReport';
  reportId: string;
  /** The confirmed donation's fundraiser, for a report that has not arrived yet. */
  fundraiserId: string;
  donationId: string;
  at: string;
}

/** The processor said the report's payment will not come (its checkout expired, its debit failed). */
export interface DropReport {
  type: 'DropReport';
  reportId: string;
  /** The fundraiser the processor's checkout named, for a report that has not arrived yet. */
  fundraiserId: string;
  reason: EventOf<'DonationReportDropped'>['data']['reason'];
  at: string;
}

export type DonationReportCommand = RecordCheckout | ReportDonation | ConfirmReport | DropReport;
export type DonationReportEvent =
  | EventOf<'DonationCheckoutCreated'>
  | EventOf<'DonationReported'>
  | EventOf<'DonationReportConfirmed'>
  | EventOf<'DonationReportDropped'>;

export interface DonationReportState {
  /** Null while only a checkout, a confirmation or a drop has arrived. */
  report: { fundraiserId: string; amountCents: number; awaiting: boolean; at: string } | null;
  /** The product's checkout behind the report, if it made one. */
  checkout: { fundraiserId: string; amountCents: number } | null;
  /** The processor's donation that confirmed it; null while it awaits confirmation. */
  confirmedBy: string | null;
  /** The processor said its payment will not come. */
  dropped: boolean;
}

export const donationReportStreamName = (reportId: string): string => `donation-report-${reportId}`;

/**
 * The report id of a keyed report: the same fundraiser and Idempotency-Key always give the same
 * id, so a retry lands in the same stream (and two concurrent ones append the same event id).
 * UUID-shaped, as EventStoreDB wants event ids.
 */
export function reportIdFor(fundraiserId: string, idempotencyKey: string): string {
  const hex = createHash('sha256').update(`${fundraiserId}\u0000${idempotencyKey}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** Whether the report counts in its owner's figures as awaiting confirmation now. */
export const awaitsConfirmation = (state: DonationReportState): boolean =>
  state.report !== null && state.report.awaiting && state.confirmedBy === null && !state.dropped;

const KEY_REUSED = 'Idempotency-Key was already used with a different amount';

/** What a settlement takes back of the report: its amount while it awaited, its instant. */
function pending(report: DonationReportState['report']): { pendingCents: number; reportedAt?: string } {
  if (!report) return { pendingCents: 0 };
  return { pendingCents: report.awaiting ? report.amountCents : 0, reportedAt: report.at };
}

/**
 * One reported donation per stream, so deciding on it never reads more than a few events. The
 * stream starts with whichever comes first: the product's checkout, the page's report, or the
 * processor's word on the payment (a webhook may overtake the page that reports). A report that
 * arrives confirmed or dropped awaits nothing; while Stripe takes donations, neither does one
 * no checkout of the product backs.
 */
export const donationReportDecider: Decider<DonationReportCommand, DonationReportEvent, DonationReportState> = {
  initialState: () => ({ report: null, checkout: null, confirmedBy: null, dropped: false }),

  decide(command, state) {
    switch (command.type) {
      case 'RecordCheckout': {
        // A retry gets the same session from the processor; the first checkout stays the report's.
        if (state.checkout) return [];
        const { type: _type, ...data } = command;
        return [{ type: 'DonationCheckoutCreated', data }];
      }
      case 'ReportDonation': {
        const amountCents = parseAmountCents(command.amount);
        if (state.report) {
          if (state.report.amountCents !== amountCents) throw new DomainError('conflict', KEY_REUSED);
          return [];
        }
        // The donor paid what the checkout asked; another amount under its key is not that payment.
        if (state.checkout && state.checkout.amountCents !== amountCents) throw new DomainError('conflict', KEY_REUSED);
        return [
          {
            type: 'DonationReported',
            data: {
              reportId: command.reportId,
              fundraiserId: command.fundraiserId,
              amountCents,
              currency: 'USD',
              source: command.source,
              idempotencyKey: command.idempotencyKey,
              confirmedBy: state.confirmedBy,
              awaiting: !state.confirmedBy && !state.dropped && (!command.needsCheckout || state.checkout !== null),
              at: command.at,
            },
          },
        ];
      }
      case 'ConfirmReport': {
        if (state.confirmedBy) return [];
        return [
          {
            type: 'DonationReportConfirmed',
            data: {
              reportId: command.reportId,
              fundraiserId: state.report?.fundraiserId ?? command.fundraiserId,
              donationId: command.donationId,
              // A report dropped and then paid after all (Stripe retried a debit) awaited nothing since.
              ...pending(state.dropped ? null : state.report),
              at: command.at,
            },
          },
        ];
      }
      case 'DropReport': {
        // Money the processor confirmed is not taken back by word that it would not come.
        if (state.confirmedBy || state.dropped) return [];
        return [
          {
            type: 'DonationReportDropped',
            data: {
              reportId: command.reportId,
              fundraiserId: state.report?.fundraiserId ?? state.checkout?.fundraiserId ?? command.fundraiserId,
              ...pending(state.report),
              reason: command.reason,
              at: command.at,
            },
          },
        ];
      }
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'DonationCheckoutCreated':
        return { ...state, checkout: { fundraiserId: event.data.fundraiserId, amountCents: event.data.amountCents } };
      case 'DonationReported': {
        const { fundraiserId, amountCents, confirmedBy, awaiting = confirmedBy === null, at } = event.data;
        return {
          ...state,
          report: { fundraiserId, amountCents, awaiting, at },
          confirmedBy: state.confirmedBy ?? confirmedBy,
        };
      }
      case 'DonationReportConfirmed':
        return { ...state, confirmedBy: event.data.donationId };
      case 'DonationReportDropped':
        return { ...state, dropped: true };
    }
  },
};

// The amount rule of a report, which the processor's confirmations share (processor-donation-decider.ts).

export const AMOUNT_INVALID = 'amount must be a number greater than 0';
/** A ceiling far above any real donation, so a typo or a forged request cannot inflate the totals. */
export const MAX_DONATION_CENTS = 100_000_000;

/** Plain decimal dollars: digits with an optional fraction. No sign, exponent or hex. */
const decimalDollars = /^(?=\.?\d)(\d*)(?:\.(\d*))?$/;

/**
 * The widget's amount in integer cents. Spec section 5: a number, or a string with quotes
 * stripped, parsed to a number, which must be above 0. Rounding works on the decimal text, not
 * on a float, so 19.99 is 1999 and 1.005 is 101: half a cent rounds away from zero.
 */
export function parseAmountCents(amount: unknown): number {
  const text = decimalText(amount);
  const match = decimalDollars.exec(text);
  if (!match) throw new DomainError('validation', AMOUNT_INVALID);
  const whole = match[1] ?? '';
  const fraction = `${match[2] ?? ''}000`;
  const truncated = Number(whole || '0') * 100 + Number(fraction.slice(0, 2));
  const cents = fraction.charAt(2) >= '5' ? truncated + 1 : truncated;
  if (cents > MAX_DONATION_CENTS) {
    throw new DomainError('validation', `amount must be at most ${MAX_DONATION_CENTS / 100}`);
  }
  if (cents === 0) {
    throw new DomainError('validation', /[1-9]/.test(text) ? 'amount must be at least 0.01' : AMOUNT_INVALID);
  }
  return cents;
}

/** The amount as decimal text; '' (which never matches) for anything that is not a positive number. */
function decimalText(amount: unknown): string {
  // Blanks and quotes around the number, as the widget may wrap it; none inside it.
  if (typeof amount === 'string') return amount.replace(/^[\s"']+|[\s"']+$/g, '');
  if (typeof amount !== 'number' || !Number.isFinite(amount) || amount <= 0) return '';
  // String() gives the shortest text that reads back as this number: what the sender wrote.
  // It uses an exponent only below 1e-6 or from 1e21 on, where exact digits serve as well.
  const text = String(amount);
  if (!text.includes('e')) return text;
  return amount < 1 ? amount.toFixed(20) : BigInt(amount).toString();
}
