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

/** The processor's `donation.refunded`. */
export interface RefundDonation {
  type: 'RefundDonation';
  donationId: string;
  at: string;
}

export type ProcessorDonationCommand = ConfirmDonation | RefundDonation;
export type ProcessorDonationEvent = EventOf<'DonationConfirmed'> | EventOf<'DonationRefunded'>;

export interface ProcessorDonationState {
  donationId: string;
  fundraiserId: string;
  amountCents: number;
  reportId: string | null;
  live: boolean;
  confirmedAt: string;
  refunded: boolean;
}

/** Named by the processor's id, so a donation counts once whatever message brings it. */
export const processorDonationStreamName = (donationId: string): string => `processor-donation-${donationId}`;

/**
 * One processor donation per stream: confirmed once (a repeat, under any webhook id, changes
 * nothing), refunded once, and only once confirmed; a refund of a donation never confirmed is
 * unknown (404: the processor retries, and succeeds once the confirmation has arrived).
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
        if (state.refunded) return [];
        return [
          {
            type: 'DonationRefunded',
            data: {
              donationId: state.donationId,
              fundraiserId: state.fundraiserId,
              amountCents: state.amountCents,
              currency: 'USD',
              donatedAt: state.confirmedAt,
              live: state.live,
              at: command.at,
            },
          },
        ];
      }
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'DonationConfirmed': {
        const { donationId, fundraiserId, amountCents, reportId, at } = event.data;
        const live = isLiveMoney(event.data);
        return state ?? { donationId, fundraiserId, amountCents, reportId, live, confirmedAt: at, refunded: false };
      }
      case 'DonationRefunded':
        return state && { ...state, refunded: true };
    }
  },
};
