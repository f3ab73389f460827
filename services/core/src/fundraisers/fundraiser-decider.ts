import type { EventOf } from '@qrshirt/contracts';
import { type CharityState, isApprovedCharity } from '../charities/charity-decider';
import { type Decider, DomainError } from '../event-sourcing/decider';
import type { ShirtState } from '../shirts/shirt-decider';

export interface FundraiserState {
  fundraiserId: string;
  userId: string;
  charityId: string;
  shirtId: string;
  name: string;
  createdAt: string;
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

export type FundraiserCommand = CreateFundraiser;
/**
 * Donations are decided in streams of their own (`../donations/`), so a fundraiser's stream stays
 * one event long whatever it raises. Streams written before that hold `DonationRecorded` events
 * too; they are read (and projected as confirmed money) but decide nothing here.
 */
export type FundraiserEvent = EventOf<'FundraiserCreated'> | EventOf<'DonationRecorded'>;

export const fundraiserStreamName = (fundraiserId: string): string => `fundraiser-${fundraiserId}`;

export const fundraiserDecider: Decider<FundraiserCommand, FundraiserEvent, FundraiserState | null> = {
  initialState: () => null,

  decide(command, state) {
    switch (command.type) {
      case 'CreateFundraiser': {
        if (state) throw new DomainError('conflict', 'Fundraiser already exists');
        // Unknown referenced ids are 404s, like unknown ids in a path; a charity awaiting review
        // (or rejected) is not in the shop, so it is unknown here too.
        if (!isApprovedCharity(command.charity)) throw new DomainError('not_found', 'Charity not found');
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
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'FundraiserCreated': {
        const { at, ...fundraiser } = event.data;
        return { ...fundraiser, createdAt: at };
      }
      case 'DonationRecorded':
        return state;
    }
  },
};
