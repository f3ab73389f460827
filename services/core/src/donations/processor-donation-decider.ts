import { createHash } from 'node:crypto';
import { type EventOf, isLiveMoney } from '@qrshirt/contracts';
import { type Decider, DomainError } from '../kit/decider';
import { parseAmountCents } from './donation-report-decider';

/** The processor's `donation.succeeded`. */
export interface ConfirmDonation {
  type: 'ConfirmDonation';
  donationId: string;
  fundraiserId: string;
  /** Dollars, as the webhook gave them; parsed to cents by the widget's rule. */
  amount: unknown;
  reportId: string | null;
  /** Real money, or the processor's test money. */
  live: boolean;
  at: string;
}

/** The processor refunded the donation: wholly, or up to a total. */
export interface RefundDonation {
  type: 'RefundDonation';
  donationId: string;
  /**
   * Everything refunded of the donation so far, as the processor counts it (Stripe's cumulative
   * `amount_refunded`): only what is new comes off. Absent: the whole donation is refunded.
   */
  refundedCents?: number;
  at: string;
}

/** The processor withdrew a disputed amount of the donation from the account. */
export interface WithdrawDisputedFunds {
  type: 'WithdrawDisputedFunds';
  donationId: string;
  disputeId: string;
  amountCents: number;
  at: string;
}

export type ProcessorDonationCommand = ConfirmDonation | RefundDonation | WithdrawDisputedFunds;
export type ProcessorDonationEvent = EventOf<'DonationConfirmed'> | EventOf<'DonationRefunded'>;

export interface ProcessorDonationState {
  donationId: string;
  fundraiserId: string;
  amountCents: number;
  reportId: string | null;
  live: boolean;
  confirmedAt: string;
  /** Taken away so far, by refunds and disputes: never more than `amountCents`. */
  subtractedCents: number;
  /** Taken away by refunds, to compare with the processor's running total. */
  refundedCents: number;
  /** Disputes whose funds were withdrawn. */
  disputeIds: string[];
}

/** Named by the processor's id, so a donation counts once whatever message brings it. */
export const processorDonationStreamName = (donationId: string): string => `processor-donation-${donationId}`;

/**
 * One processor donation per stream: confirmed once (a repeat, under any webhook id, changes
 * nothing), and only once confirmed refunded or withdrawn for a dispute, in parts, never more than
 * it was; a refund of a donation never confirmed is unknown (404: the processor retries, and
 * succeeds once the confirmation has arrived).
 */
export const processorDonationDecider: Decider<
  ProcessorDonationCommand,
  ProcessorDonationEvent,
  ProcessorDonationState | null
> = {
  initialState: () => null,

  decide(command, state) {
    switch (command.type) {
      case 'ConfirmDonation': {
        const amountCents = parseAmountCents(command.amount);
        if (state) return [];
        return [
          {
            type: 'DonationConfirmed',
            data: {
              donationId: command.donationId,
              fundraiserId: command.fundraiserId,
              amountCents,
              currency: 'USD',
              reportId: command.reportId,
              live: command.live,
              at: command.at,
            },
          },
        ];
      }
      case 'RefundDonation': {
        if (!state) throw new DomainError('not_found', 'Donation not found');
        const remaining = state.amountCents - state.subtractedCents;
        const cents =
          command.refundedCents === undefined
            ? remaining
            : Math.min(command.refundedCents - state.refundedCents, remaining);
        return subtracted(state, cents, command.at);
      }
      case 'WithdrawDisputedFunds': {
        if (!state) throw new DomainError('not_found', 'Donation not found');
        if (state.disputeIds.includes(command.disputeId)) return [];
        const cents = Math.min(command.amountCents, state.amountCents - state.subtractedCents);
        return subtracted(state, cents, command.at, command.disputeId);
      }
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'DonationConfirmed': {
        const { donationId, fundraiserId, amountCents, reportId, at } = event.data;
        const live = isLiveMoney(event.data);
        return (
          state ?? {
            donationId,
            fundraiserId,
            amountCents,
            reportId,
            live,
            confirmedAt: at,
            subtractedCents: 0,
            refundedCents: 0,
            disputeIds: [],
          }
        );
      }
      case 'DonationRefunded': {
        if (!state) return state;
        const { amountCents, remainingCents = 0, disputeId } = event.data;
        return {
          ...state,
          subtractedCents: state.amountCents - remainingCents,
          refundedCents: state.refundedCents + (disputeId === undefined ? amountCents : 0),
          disputeIds: disputeId === undefined ? state.disputeIds : [...state.disputeIds, disputeId],
        };
      }
    }
  },
};

/** `cents` more of the donation no longer counts: nothing when there is nothing left to take. */
function subtracted(
  state: ProcessorDonationState,
  cents: number,
  at: string,
  disputeId?: string,
): ProcessorDonationEvent[] {
  if (cents <= 0) return [];
  return [
    {
      type: 'DonationRefunded',
      data: {
        donationId: state.donationId,
        fundraiserId: state.fundraiserId,
        amountCents: cents,
        currency: 'USD',
        donatedAt: state.confirmedAt,
        remainingCents: state.amountCents - state.subtractedCents - cents,
        ...(disputeId !== undefined && { disputeId }),
        live: state.live,
        at,
      },
    },
  ];
}

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
