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
  /** Null when the owner set no goal. */
  goalCents: number | null;
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

/** The owner's changes: only what is given changes, and only what differs becomes an event. */
export interface UpdateFundraiser {
  type: 'UpdateFundraiser';
  /** Who asks: only the owner may change their shirt. */
  userId: string | null;
  name?: string;
  /** Loaded by the caller from `charity-<charityId>` when a charity is named; null when that stream is empty. */
  charity?: CharityState | null;
  /** Undefined: unchanged; null: no goal. */
  goalCents?: number | null;
  at: string;
}

/** The most a goal may be: the contract's MAX_GOAL, which the route enforces before this does. */
const MAX_GOAL_CENTS = 100_000_000;

export type FundraiserCommand = CreateFundraiser | UpdateFundraiser;
/**
 * Donations are decided in streams of their own (`../donations/`), so a fundraiser's stream stays
 * one event long whatever it raises. Streams written before that hold `DonationRecorded` events
 * too; they are read (and projected as confirmed money) but decide nothing here.
 */
export type FundraiserEvent =
  | EventOf<'FundraiserCreated'>
  | EventOf<'FundraiserCharityChanged'>
  | EventOf<'FundraiserRenamed'>
  | EventOf<'FundraiserGoalSet'>
  | EventOf<'DonationRecorded'>;

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
      case 'UpdateFundraiser':
        return decideUpdate(command, state);
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'FundraiserCreated': {
        const { at, ...fundraiser } = event.data;
        return { ...fundraiser, goalCents: null, createdAt: at };
      }
      case 'FundraiserCharityChanged':
        return state && { ...state, charityId: event.data.charityId };
      case 'FundraiserRenamed':
        return state && { ...state, name: event.data.name };
      case 'FundraiserGoalSet':
        return state && { ...state, goalCents: event.data.goalCents };
      case 'DonationRecorded':
        return state;
    }
  },
};

function decideUpdate(command: UpdateFundraiser, state: FundraiserState | null): FundraiserEvent[] {
  if (!state) throw new DomainError('not_found', 'Fundraiser not found');
  if (command.userId !== state.userId) {
    throw new DomainError('forbidden', 'Only the owner of this fundraiser can change it');
  }
  const { fundraiserId } = state;
  const { at } = command;
  const events: FundraiserEvent[] = [];
  if (command.charity !== undefined) {
    // As at creation: a charity awaiting review (or rejected) is not in the shop, so unknown here.
    if (!isApprovedCharity(command.charity)) throw new DomainError('not_found', 'Charity not found');
    const { charityId } = command.charity;
    if (charityId !== state.charityId) {
      events.push({
        type: 'FundraiserCharityChanged',
        data: { fundraiserId, charityId, previousCharityId: state.charityId, at },
      });
    }
  }
  const name = command.name?.trim();
  if (command.name !== undefined && !name) throw new DomainError('validation', 'name must not be blank');
  if (name && name !== state.name) events.push({ type: 'FundraiserRenamed', data: { fundraiserId, name, at } });
  const { goalCents } = command;
  if (goalCents !== undefined) {
    if (goalCents !== null && (!Number.isSafeInteger(goalCents) || goalCents < 0 || goalCents > MAX_GOAL_CENTS)) {
      throw new DomainError('validation', 'goal must be between $0 and $1,000,000');
    }
    if (goalCents !== state.goalCents)
      events.push({ type: 'FundraiserGoalSet', data: { fundraiserId, goalCents, at } });
  }
  return events;
}
