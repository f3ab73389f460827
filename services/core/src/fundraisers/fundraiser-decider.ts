import type { EventOf } from '@qrshirt/contracts';
import type { CharityState } from '../charities/charity-decider';
import { type Decider, DomainError } from '../event-sourcing/decider';
import { parseAmountCents } from './donation-amount';
import { type LookupList, findIn, prepend } from '../event-sourcing/lookup-list';
import type { ShirtState } from '../shirts/shirt-decider';

export interface KeyedDonation {
  idempotencyKey: string;
  donationId: string;
  amountCents: number;
}

export interface FundraiserState {
  fundraiserId: string;
  userId: string;
  charityId: string;
  shirtId: string;
  name: string;
  createdAt: string;
  donationCount: number;
  raisedCents: number;
  /** Donations that came with an Idempotency-Key, newest first. */
  keyedDonations: LookupList<KeyedDonation>;
}

export interface CreateFundraiser {
  type: 'CreateFundraiser';
  fundraiserId: string;
  userId: string;
  /** Loaded by the caller from `charity-<charityId>`; null when that stream is empty. */
  charity: CharityState | null;
  /** Loaded by the caller from `shirt-<shirtId>`; null when that stream is empty. */
  shirt: ShirtState | null;
  /** Defaults to the shirt's name when absent or blank. */
  name?: string;
  at: string;
}

export interface RecordDonation {
  type: 'RecordDonation';
  donationId: string;
  /** As the widget sent it: parsed here by the spec's rule (see parseAmountCents). */
  amount: unknown;
  idempotencyKey: string | null;
  /** Where the donation was reported from, e.g. 'widget'. */
  source: string;
  at: string;
}

export type FundraiserCommand = CreateFundraiser | RecordDonation;
export type FundraiserEvent = EventOf<'FundraiserCreated'> | EventOf<'DonationRecorded'>;

export const fundraiserStreamName = (fundraiserId: string): string => `fundraiser-${fundraiserId}`;

/** The donation already recorded under this Idempotency-Key, if any. */
export function findKeyedDonation(state: FundraiserState, idempotencyKey: string): KeyedDonation | undefined {
  return findIn(state.keyedDonations, (donation) => donation.idempotencyKey === idempotencyKey);
}

export const fundraiserDecider: Decider<FundraiserCommand, FundraiserEvent, FundraiserState | null> = {
  initialState: () => null,

  decide(command, state) {
    switch (command.type) {
      case 'CreateFundraiser': {
        if (state) throw new DomainError('conflict', 'Fundraiser already exists');
        // Unknown referenced ids are 404s, like unknown ids in a path.
        if (!command.charity) throw new DomainError('not_found', 'Charity not found');
        if (!command.shirt) throw new DomainError('not_found', 'Shirt not found');
        const name = command.name?.trim() || command.shirt.name;
        return [
          {
            type: 'FundraiserCreated',
            data: {
              fundraiserId: command.fundraiserId,
              userId: command.userId,
              charityId: command.charity.charityId,
              shirtId: command.shirt.shirtId,
              name,
              at: command.at,
            },
          },
        ];
      }
      case 'RecordDonation': {
        if (!state) throw new DomainError('not_found', 'Fundraiser not found');
        const amountCents = parseAmountCents(command.amount);
        const { idempotencyKey } = command;
        if (idempotencyKey !== null) {
          const earlier = findKeyedDonation(state, idempotencyKey);
          if (earlier && earlier.amountCents !== amountCents) {
            throw new DomainError('conflict', 'Idempotency-Key was already used with a different amount');
          }
          if (earlier) return [];
        }
        return [
          {
            type: 'DonationRecorded',
            data: {
              fundraiserId: state.fundraiserId,
              donationId: command.donationId,
              amountCents,
              currency: 'USD',
              source: command.source,
              idempotencyKey,
              at: command.at,
            },
          },
        ];
      }
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'FundraiserCreated': {
        const { at, ...fundraiser } = event.data;
        return { ...fundraiser, createdAt: at, donationCount: 0, raisedCents: 0, keyedDonations: null };
      }
      case 'DonationRecorded': {
        if (!state) return state;
        const { idempotencyKey, donationId, amountCents } = event.data;
        return {
          ...state,
          donationCount: state.donationCount + 1,
          raisedCents: state.raisedCents + amountCents,
          keyedDonations:
            idempotencyKey === null
              ? state.keyedDonations
              : prepend(state.keyedDonations, { idempotencyKey, donationId, amountCents }),
        };
      }
    }
  },
};
