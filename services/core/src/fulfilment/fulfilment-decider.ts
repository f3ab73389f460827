import type { EventData, EventOf } from '@qrshirt/contracts';
import { type Decider, DomainError } from '../kit/decider';

/**
 * What the entry's fulfilment recorded: the fundraiser made for it, the claim link's hash, and the
 * hashes of the removal links its mails carried.
 */
export type FulfilmentState = EventData<'WaitlistEntryFulfilled'> & { removeTokenHashes: string[] };

export interface FulfilEntry {
  type: 'FulfilEntry';
  /** The entry as it joined, found by the caller; null when no entry has this id. */
  entry: EventData<'WaitlistJoined'> | null;
  fundraiserId: string;
  /** SHA-256 of the token mailed in the claim link: the token itself is never stored. */
  claimTokenHash: string;
  claimExpiresAt: string;
  /** SHA-256 of the removal link's token, mailed with the claim link. */
  removeTokenHash: string;
  at: string;
}

/** A new claim link for a fulfilled entry whose person has not claimed it yet. */
export interface ReissueClaimLink {
  type: 'ReissueClaimLink';
  /** Whether the entry's fundraiser has an owner, loaded by the caller from its stream. */
  claimed: boolean;
  claimTokenHash: string;
  claimExpiresAt: string;
  removeTokenHash: string;
  at: string;
}

export type FulfilmentCommand = FulfilEntry | ReissueClaimLink;
export type FulfilmentEvent = EventOf<'WaitlistEntryFulfilled'> | EventOf<'ClaimLinkReissued'>;

/** A claim link works for this long after the entry is fulfilled. */
export const CLAIM_LINK_TTL_MS = 30 * 24 * 60 * 60_000;

export const ENTRY_ERASED = "This waitlist entry's person removed it: their name and email are erased";

/**
 * One stream per fulfilled entry, apart from the entry's own (which, in old logs, is a whole
 * shirt's list): written with expected revision "no stream", so of two operators fulfilling the
 * same entry at once exactly one makes a fundraiser.
 */
export const fulfilmentStreamName = (entryId: string): string => `fulfilment-${entryId}`;
export const FULFILMENT_STREAM_PREFIX = 'fulfilment-';

/**
 * Ids as the gateway accepts them in paths, and as the fulfilment's links (claim, removal:
 * `<entryId>.<secret>`) carry them; anything else in a token is not a token of ours.
 */
export const ENTRY_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

export const fulfilmentDecider: Decider<FulfilmentCommand, FulfilmentEvent, FulfilmentState | null> = {
  initialState: () => null,

  decide(command, state) {
    if (command.type === 'ReissueClaimLink') {
      if (!state) throw new DomainError('not_found', 'This waitlist entry has not been fulfilled');
      // Erased with its key when its person removed the entry: there is nobody left to mail.
      if (state.email === null) throw new DomainError('gone', ENTRY_ERASED);
      if (command.claimed) throw new DomainError('conflict', "This entry's shirt has been claimed already");
      const { claimTokenHash, claimExpiresAt, removeTokenHash, at } = command;
      return [
        {
          type: 'ClaimLinkReissued',
          data: { entryId: state.entryId, claimTokenHash, claimExpiresAt, removeTokenHash, at },
        },
      ];
    }
    const { entry } = command;
    if (!entry) throw new DomainError('not_found', 'Waitlist entry not found');
    if (entry.email === null) throw new DomainError('gone', ENTRY_ERASED);
    if (state) throw new DomainError('conflict', 'This waitlist entry has been fulfilled already');
    return [
      {
        type: 'WaitlistEntryFulfilled',
        data: {
          entryId: entry.entryId,
          fundraiserId: command.fundraiserId,
          shirtId: entry.shirtId,
          size: entry.size,
          charityId: entry.charityId,
          name: entry.name,
          email: entry.email,
          claimTokenHash: command.claimTokenHash,
          claimExpiresAt: command.claimExpiresAt,
          removeTokenHash: command.removeTokenHash,
          at: command.at,
        },
      },
    ];
  },

  evolve(state, event) {
    switch (event.type) {
      case 'WaitlistEntryFulfilled': {
        const { removeTokenHash } = event.data;
        return state ?? { ...event.data, removeTokenHashes: removeTokenHash ? [removeTokenHash] : [] };
      }
      case 'ClaimLinkReissued': {
        const { claimTokenHash, claimExpiresAt, removeTokenHash } = event.data;
        return (
          state && {
            ...state,
            claimTokenHash,
            claimExpiresAt,
            removeTokenHashes: removeTokenHash
              ? [...state.removeTokenHashes, removeTokenHash]
              : state.removeTokenHashes,
          }
        );
      }
    }
  },
};
