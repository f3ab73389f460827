import type { EventOf } from '@qrshirt/contracts';
import { type Decider, DomainError } from '../kit/decider';
import { WAITLIST_REMOVAL_STREAM_PREFIX } from '../kit/stream-prefixes';

/** The entry's person opened a removal link mailed to them. */
export interface RemoveWaitlistEntry {
  type: 'RemoveWaitlistEntry';
  entryId: string;
  /** SHA-256 of the token they hold. */
  tokenHash: string;
  /**
   * Hashes of the removal links the entry's mails carried, read by the caller from the stream the
   * token names (the signup's, or the fulfilment's for a claim mail).
   */
  mailedTokenHashes: readonly string[];
  at: string;
}

/** The account whose verified address made the entry was closed: its person left, signups included. */
export interface RemoveEntryOfClosedAccount {
  type: 'RemoveEntryOfClosedAccount';
  entryId: string;
  at: string;
}

export type WaitlistRemovalCommand = RemoveWaitlistEntry | RemoveEntryOfClosedAccount;

/** Whether the entry was removed. */
export type WaitlistRemovalState = boolean;

export const INVALID_REMOVAL_LINK = 'This removal link is not valid: open the link from the email exactly as it came';
export const REMOVED_ALREADY = 'This waitlist entry has been removed already';

/**
 * `waitlist-removal-<entryId>`: one stream per entry, whichever of its mails the link came from,
 * so an entry is removed once. (A shirt's legacy list stream could only share the name with a
 * shirt id starting `removal-`, and each reads its own event types only.)
 */
export const waitlistRemovalStreamName = (entryId: string): string => `${WAITLIST_REMOVAL_STREAM_PREFIX}${entryId}`;

export const waitlistRemovalDecider: Decider<
  WaitlistRemovalCommand,
  EventOf<'WaitlistEntryRemoved'>,
  WaitlistRemovalState
> = {
  initialState: () => false,

  decide(command, removed) {
    const { entryId, at } = command;
    if (command.type === 'RemoveEntryOfClosedAccount') {
      // Closing an account again finishes what a first try left: an entry removed already stays so.
      return removed ? [] : [{ type: 'WaitlistEntryRemoved', data: { entryId, by: 'account-closed', at } }];
    }
    if (!command.mailedTokenHashes.includes(command.tokenHash)) {
      throw new DomainError('not_found', INVALID_REMOVAL_LINK);
    }
    // Removal links are single-use: the entry and its data are gone, nothing is left to remove.
    if (removed) throw new DomainError('not_found', REMOVED_ALREADY);
    return [{ type: 'WaitlistEntryRemoved', data: { entryId, at } }];
  },

  evolve: () => true,
};
