import type { EventOf } from '@qrshirt/contracts';
import { type CharityState, isApprovedCharity } from '../charities/charity-decider';
import { type Decider, DomainError } from '../event-sourcing/decider';
import { isValidEmailAddress } from '../users/email-address';
import { type LookupList, findIn, prepend } from '../event-sourcing/lookup-list';
import type { ShirtState } from '../shirts/shirt-decider';

export interface JoinWaitlist {
  type: 'JoinWaitlist';
  entryId: string;
  /** Loaded by the caller from `shirt-<shirtId>`; null when that stream is empty. */
  shirt: ShirtState | null;
  /** The selected charity id as sent: blank means none was chosen, which is reported before lookups. */
  charityId: string;
  /** Loaded by the caller from `charity-<charityId>`; null when unknown (or charityId is blank). */
  charity: CharityState | null;
  name: string;
  email: string;
  size: string;
  at: string;
}

export interface WaitlistEntryRef {
  entryId: string;
  email: string;
  size: string;
  charityId: string;
}

/** One stream per shirt. Entries newest first, kept to recognise a repeated signup. */
export interface WaitlistState {
  entries: LookupList<WaitlistEntryRef>;
}

export type WaitlistCommand = JoinWaitlist;
export type WaitlistEvent = EventOf<'WaitlistJoined'>;

export const waitlistStreamName = (shirtId: string): string => `waitlist-${shirtId}`;

export const MAX_NAME_LENGTH = 200;

/** The earlier signup for the same email (case-insensitive), size and charity, if any. */
export function findWaitlistEntry(
  state: WaitlistState,
  entry: { email: string; size: string; charityId: string },
): WaitlistEntryRef | undefined {
  const email = entry.email.trim().toLowerCase();
  const size = entry.size.trim();
  const charityId = entry.charityId.trim();
  return findIn(
    state.entries,
    (earlier) => earlier.email === email && earlier.size === size && earlier.charityId === charityId,
  );
}

export const waitlistDecider: Decider<WaitlistCommand, WaitlistEvent, WaitlistState> = {
  initialState: () => ({ entries: null }),

  decide(command, state) {
    const size = command.size.trim();
    const charityId = command.charityId.trim();
    const name = command.name.trim();
    const email = command.email.trim();
    // Presence first, in the spec's order (size, charity, name, email), as the client checks it.
    if (!size) throw new DomainError('validation', 'selectedSize is required');
    if (!charityId) throw new DomainError('validation', 'selectedCharity is required');
    if (!name) throw new DomainError('validation', 'name is required');
    if (!email) throw new DomainError('validation', 'email is required');
    if (name.length > MAX_NAME_LENGTH) {
      throw new DomainError('validation', `name must be at most ${MAX_NAME_LENGTH} characters`);
    }
    if (!isValidEmailAddress(email)) {
      throw new DomainError('validation', 'email must be a valid email address');
    }
    const { shirt, charity } = command;
    if (!shirt) throw new DomainError('not_found', 'Shirt not found');
    if (!shirt.sizes.includes(size)) {
      throw new DomainError('validation', `selectedSize must be one of the shirt's sizes: ${shirt.sizes.join(', ')}`);
    }
    // A charity awaiting review (or rejected) is offered by no selector: unknown here too.
    if (!isApprovedCharity(charity)) throw new DomainError('not_found', 'Charity not found');
    // A repeated signup (double submit, second visit) is already on the list: nothing new happens.
    if (findWaitlistEntry(state, { email, size, charityId: charity.charityId })) return [];
    return [
      {
        type: 'WaitlistJoined',
        data: {
          entryId: command.entryId,
          shirtId: shirt.shirtId,
          name,
          email,
          size,
          charityId: charity.charityId,
          at: command.at,
        },
      },
    ];
  },

  evolve(state, event) {
    const { entryId, email, size, charityId } = event.data;
    return { entries: prepend(state.entries, { entryId, email: email.toLowerCase(), size, charityId }) };
  },
};
