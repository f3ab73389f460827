import type { EventOf } from '@qrshirt/contracts';
import { type Decider, DomainError } from '../kit/decider';
import { type CatalogueCharity, type CatalogueShirt, isApprovedCharity } from '../ports/catalogue';
import { type ClaimOffer, INVALID_CLAIM_LINK } from '../ports/entry-fundraisers';

export interface FundraiserState {
  fundraiserId: string;
  /** Null while a fundraiser made for a waitlist entry waits for its person to claim it. */
  userId: string | null;
  charityId: string;
  shirtId: string;
  name: string;
  /** Null when the owner set no goal. */
  goalCents: number | null;
  /** Null until it gets the code of its short link (short-code.ts). */
  shortCode: string | null;
  createdAt: string;
}

export interface CreateFundraiser {
  type: 'CreateFundraiser';
  fundraiserId: string;
  /** Null for a waitlist entry's fundraiser, owned by nobody until claimed. */
  userId: string | null;
  /** The waitlist entry it is made for, when an operator fulfils one. */
  entryId?: string;
  /** Loaded by the caller from `charity-<charityId>`; null when that stream is empty. */
  charity: CatalogueCharity | null;
  /** Loaded by the caller from `shirt-<shirtId>`; null when that stream is empty. */
  shirt: CatalogueShirt | null;
  /** Defaults to the shirt's name when absent or blank. */
  name?: string;
  /**
   * The request is a retry under an Idempotency-Key (the id is derived from it): a fundraiser that
   * exists already, made by the same request, is the answer (no event); made by another, a conflict.
   */
  retry?: boolean;
  at: string;
}

/** The person a waitlist entry's fundraiser was made for takes it, with the token mailed to them. */
export interface ClaimFundraiser {
  type: 'ClaimFundraiser';
  userId: string;
  /** The claimant's address, and whether they proved it is theirs. */
  claimant: { email: string | null; verified: boolean };
  /** SHA-256 of the token they hold. */
  tokenHash: string;
  /** Loaded by the caller from the entry's `fulfilment-<entryId>` stream; null when empty. */
  fulfilment: ClaimOffer | null;
  at: string;
}

/** The owner's changes: only what is given changes, and only what differs becomes an event. */
export interface UpdateFundraiser {
  type: 'UpdateFundraiser';
  /** Who asks: only the owner may change their shirt. */
  userId: string | null;
  name?: string;
  /** Loaded by the caller from `charity-<charityId>` when a charity is named; null when that stream is empty. */
  charity?: CatalogueCharity | null;
  /** Undefined: unchanged; null: no goal. */
  goalCents?: number | null;
  at: string;
}

/** A code `ShortCodeReserved` made this fundraiser's becomes the code of its short link, once. */
export interface AssignShortCode {
  type: 'AssignShortCode';
  code: string;
  at: string;
}

/** The most a goal may be: the contract's MAX_GOAL, which the route enforces before this does. */
const MAX_GOAL_CENTS = 100_000_000;

export type FundraiserCommand = CreateFundraiser | ClaimFundraiser | UpdateFundraiser | AssignShortCode;
/**
 * Donations are decided in streams of their own (`../donations/`), so a fundraiser's stream stays
 * one event long whatever it raises. Streams written before that hold `DonationRecorded` events
 * too; they are read (and projected as confirmed money) but decide nothing here.
 */
export type FundraiserEvent =
  | EventOf<'FundraiserCreated'>
  | EventOf<'FundraiserClaimed'>
  | EventOf<'FundraiserCharityChanged'>
  | EventOf<'FundraiserRenamed'>
  | EventOf<'FundraiserGoalSet'>
  | EventOf<'FundraiserShortCodeAssigned'>
  | EventOf<'DonationRecorded'>;

export const fundraiserStreamName = (fundraiserId: string): string => `fundraiser-${fundraiserId}`;

export const fundraiserDecider: Decider<FundraiserCommand, FundraiserEvent, FundraiserState | null> = {
  initialState: () => null,

  decide(command, state) {
    switch (command.type) {
      case 'CreateFundraiser': {
        if (state && command.retry) {
          if (
            state.userId === command.userId &&
            state.charityId === command.charity?.charityId &&
            state.shirtId === command.shirt?.shirtId &&
            state.name === (command.name?.trim() || command.shirt.name)
          ) {
            return [];
          }
          throw new DomainError('conflict', 'This Idempotency-Key was used for another fundraiser: use a new key');
        }
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
              ...(command.entryId !== undefined && { entryId: command.entryId }),
              at: command.at,
            },
          },
        ];
      }
      case 'ClaimFundraiser': {
        const { fulfilment, claimant } = command;
        if (!state || !fulfilment || fulfilment.fundraiserId !== state.fundraiserId) {
          throw new DomainError('not_found', INVALID_CLAIM_LINK);
        }
        if (fulfilment.claimTokenHash !== command.tokenHash) throw new DomainError('not_found', INVALID_CLAIM_LINK);
        // The fundraiser's owner is the token's single use: a second claim meets it here, but the
        // claimant's own again is a retry whose answer was lost (a 503, a cut connection): theirs.
        if (state.userId === command.userId) return [];
        if (state.userId !== null) throw new DomainError('conflict', 'This claim link has been used already');
        // Its person removed the waitlist entry, which erased the address the link was mailed to.
        if (fulfilment.email === null) {
          throw new DomainError('gone', 'This claim link no longer works: its waitlist entry was removed');
        }
        if (command.at > fulfilment.claimExpiresAt) {
          throw new DomainError('gone', 'This claim link has expired (links work for 30 days): ask us for a new one');
        }
        // The address the link was mailed to, proved by its holder: a forwarded link is not enough.
        if (!claimant.verified || claimant.email === null) {
          throw new DomainError('forbidden', 'Verify your email address before you claim this shirt');
        }
        if (claimant.email.trim().toLowerCase() !== fulfilment.email.trim().toLowerCase()) {
          throw new DomainError(
            'forbidden',
            'This claim link was mailed to another address: sign in with the account of that address',
          );
        }
        return [
          {
            type: 'FundraiserClaimed',
            data: {
              fundraiserId: state.fundraiserId,
              userId: command.userId,
              entryId: fulfilment.entryId,
              at: command.at,
            },
          },
        ];
      }
      case 'UpdateFundraiser':
        return decideUpdate(command, state);
      case 'AssignShortCode':
        if (!state) throw new DomainError('not_found', 'Fundraiser not found');
        // A printed code must keep working: another gateway's assignment stands.
        if (state.shortCode !== null) return [];
        return [
          {
            type: 'FundraiserShortCodeAssigned',
            data: { fundraiserId: state.fundraiserId, code: command.code, at: command.at },
          },
        ];
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'FundraiserCreated': {
        const { at, entryId: _entryId, ...fundraiser } = event.data;
        return { ...fundraiser, goalCents: null, shortCode: null, createdAt: at };
      }
      case 'FundraiserClaimed':
        return state && { ...state, userId: event.data.userId };
      case 'FundraiserCharityChanged':
        return state && { ...state, charityId: event.data.charityId };
      case 'FundraiserRenamed':
        return state && { ...state, name: event.data.name };
      case 'FundraiserGoalSet':
        return state && { ...state, goalCents: event.data.goalCents };
      case 'FundraiserShortCodeAssigned':
        return state && { ...state, shortCode: event.data.code };
      case 'DonationRecorded':
        return state;
    }
  },
};

function decideUpdate(command: UpdateFundraiser, state: FundraiserState | null): FundraiserEvent[] {
  if (!state) throw new DomainError('not_found', 'Fundraiser not found');
  // An unclaimed fundraiser has no owner yet: nobody may change it, the anonymous least of all.
  if (state.userId === null || command.userId !== state.userId) {
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
