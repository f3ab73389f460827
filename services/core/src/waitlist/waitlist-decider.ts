import type { EventOf } from '@qrshirt/contracts';
import { type Decider, DomainError } from '../kit/decider';
import { type LookupKeys, LOOKUP_KEY, UNKEYED_HASH, type WaitlistSignup } from '../kit/lookup-keys';
import { isValidEmailAddress } from '../kit/email-address';
import { WAITLIST_STREAM_PREFIX } from '../kit/stream-prefixes';
import { type CatalogueCharity, type CatalogueShirt, isApprovedCharity } from '../ports/catalogue';

export interface JoinWaitlist {
  type: 'JoinWaitlist';
  entryId: string;
  /** Loaded by the caller from `shirt-<shirtId>`; null when that stream is empty. */
  shirt: CatalogueShirt | null;
  /** The selected charity id as sent: blank means none was chosen, which is reported before lookups. */
  charityId: string;
  /** Loaded by the caller from `charity-<charityId>`; null when unknown (or charityId is blank). */
  charity: CatalogueCharity | null;
  name: string;
  email: string;
  size: string;
  /**
   * The same signup on the shirt's list as logs kept it before each signup had its own stream
   * (`waitlist-<shirtId>`), found by the caller; null when there is none.
   */
  earlierEntryId: string | null;
  /** SHA-256 of the token mailed to the address: the signup counts once its link is opened. */
  confirmTokenHash: string;
  /** SHA-256 of the removal link's token, mailed with the confirmation link. */
  removeTokenHash: string;
  /**
   * Whether the person removed this signup's entry (read by the caller from its removal stream):
   * signing up again then makes a new entry.
   */
  removed: boolean;
  at: string;
}

/** The signup's person opened the link mailed to them. */
export interface ConfirmWaitlistEntry {
  type: 'ConfirmWaitlistEntry';
  /** SHA-256 of the token they hold. */
  tokenHash: string;
  /** Whether its person removed the entry, read by the caller from its removal stream. */
  removed: boolean;
  at: string;
}

/** One stream per signup, so a decision reads two events at most however long the shirt's list grows. */
export type WaitlistSignupState = {
  entryId: string;
  shirtId: string;
  size: string;
  /** Hashes of every confirmation link mailed; empty for an entry that joined before signups were confirmed. */
  confirmTokenHashes: string[];
  /** Hashes of the removal links mailed with them. */
  removeTokenHashes: string[];
  confirmed: boolean;
  /** When the last confirmation link was mailed. */
  mailedAt: string;
} | null;

export type WaitlistCommand = JoinWaitlist | ConfirmWaitlistEntry;
export type WaitlistEvent =
  EventOf<'WaitlistJoined'> | EventOf<'WaitlistConfirmationResent'> | EventOf<'WaitlistEntryConfirmed'>;

/**
 * A repeated signup mails a new confirmation link at most this often: someone who lost the first
 * mail gets another, and nobody can fill a stranger's inbox by submitting the form again and again.
 */
export const CONFIRMATION_RESEND_INTERVAL_MS = 10 * 60_000;

export const INVALID_CONFIRMATION_LINK =
  'This confirmation link is not valid: open the link from the email exactly as it came';
export const CONFIRMATION_LINK_USED = 'Your place is confirmed already: a confirmation link works once';
export const ENTRY_REMOVED = 'This waitlist entry has been removed, and its name and email erased';

/**
 * Before signups had their own streams, each shirt's whole list was one stream, folded at every
 * join to recognise a repeated signup. Old logs keep those streams, which are only read now.
 */
export const legacyWaitlistStreamName = (shirtId: string): string => `${WAITLIST_STREAM_PREFIX}${shirtId}`;

/**
 * `waitlist-<shirtId>.<lookup key>`: written with expected revision "no stream", so of two
 * concurrent identical signups exactly one is stored. The name carries no address, nor anything to
 * test one against without the server's secret. The dot cannot occur in a shirt id, so no signup
 * stream is ever a shirt's legacy stream.
 */
export const waitlistSignupStreamName = (
  keys: Pick<LookupKeys, 'waitlistSignup'>,
  shirtId: string,
  signup: WaitlistSignup,
): string => `${WAITLIST_STREAM_PREFIX}${shirtId.trim()}.${keys.waitlistSignup(signup)}`;

/**
 * A confirmation token names its signup's stream (`<shirtId>.<key>`, without the prefix) before a
 * random secret, so confirming reads that one stream: `<shirtId>.<key>.<secret>`. The removal link
 * mailed with it has a token of the same form, with a secret of its own.
 */
export function confirmationTokenFor(signupStream: string, secret: string): string {
  return `${signupStream.slice(WAITLIST_STREAM_PREFIX.length)}.${secret}`;
}

/**
 * The signup stream a confirmation or removal token names; null when it cannot be one of ours.
 * Links mailed before lookup keys carry the unkeyed hash the stream was named by then, which maps
 * to the stream's name now.
 */
export function signupStreamOfToken(keys: Pick<LookupKeys, 'fromUnkeyed'>, token: string): string | null {
  const [shirtId, key, secret, ...rest] = token.split('.');
  if (rest.length > 0 || secret === undefined || !/^[A-Za-z0-9_-]{1,128}$/.test(shirtId!)) return null;
  if (LOOKUP_KEY.test(key!)) return `${WAITLIST_STREAM_PREFIX}${shirtId}.${key}`;
  if (UNKEYED_HASH.test(key!)) return `${WAITLIST_STREAM_PREFIX}${shirtId}.${keys.fromUnkeyed(key!)}`;
  return null;
}

export const MAX_NAME_LENGTH = 200;

export const waitlistDecider: Decider<WaitlistCommand, WaitlistEvent, WaitlistSignupState> = {
  initialState: () => null,

  decide(command, state) {
    return command.type === 'JoinWaitlist' ? decideJoin(command, state) : decideConfirm(command, state);
  },

  evolve(state, event) {
    switch (event.type) {
      // A second one comes only after its person removed the first entry: the signup starts anew.
      case 'WaitlistJoined': {
        const { entryId, shirtId, size, confirmTokenHash, removeTokenHash, at } = event.data;
        return {
          entryId,
          shirtId,
          size,
          confirmTokenHashes: confirmTokenHash ? [confirmTokenHash] : [],
          removeTokenHashes: removeTokenHash ? [removeTokenHash] : [],
          confirmed: !confirmTokenHash,
          mailedAt: at,
        };
      }
      case 'WaitlistConfirmationResent': {
        const { confirmTokenHash, removeTokenHash, at } = event.data;
        return (
          state && {
            ...state,
            confirmTokenHashes: [...state.confirmTokenHashes, confirmTokenHash],
            removeTokenHashes: removeTokenHash
              ? [...state.removeTokenHashes, removeTokenHash]
              : state.removeTokenHashes,
            mailedAt: at,
          }
        );
      }
      case 'WaitlistEntryConfirmed':
        return state && { ...state, confirmed: true };
    }
  },
};

function decideConfirm(command: ConfirmWaitlistEntry, state: WaitlistSignupState): WaitlistEvent[] {
  if (!state?.confirmTokenHashes.includes(command.tokenHash)) {
    throw new DomainError('not_found', INVALID_CONFIRMATION_LINK);
  }
  if (command.removed) throw new DomainError('gone', ENTRY_REMOVED);
  // Links are single-use: a second opening says so rather than pretend to confirm again.
  if (state.confirmed) throw new DomainError('conflict', CONFIRMATION_LINK_USED);
  return [{ type: 'WaitlistEntryConfirmed', data: { entryId: state.entryId, at: command.at } }];
}

function decideJoin(command: JoinWaitlist, state: WaitlistSignupState): WaitlistEvent[] {
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
  // A repeated signup (double submit, second visit) is already on the list: nothing new happens,
  // unless it is still unconfirmed and its last link is old enough to have been lost.
  if (command.earlierEntryId !== null) return [];
  if (state && !command.removed) {
    if (state.confirmed || Date.parse(command.at) - Date.parse(state.mailedAt) < CONFIRMATION_RESEND_INTERVAL_MS)
      return [];
    const { confirmTokenHash, removeTokenHash, at } = command;
    return [
      { type: 'WaitlistConfirmationResent', data: { entryId: state.entryId, confirmTokenHash, removeTokenHash, at } },
    ];
  }
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
        confirmTokenHash: command.confirmTokenHash,
        removeTokenHash: command.removeTokenHash,
        at: command.at,
      },
    },
  ];
}
