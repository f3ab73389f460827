import type { EventOf } from '@qrshirt/contracts';
import { type Decider, DomainError } from '../kit/decider';
import type { LookupKeys } from '../kit/lookup-keys';
import { EMAIL_RESERVATION_STREAM_PREFIX } from '../kit/stream-prefixes';

export interface ReserveEmail {
  type: 'ReserveEmail';
  userId: string;
  at: string;
}

export interface VerifyEmail {
  type: 'VerifyEmail';
  userId: string;
  via: 'link' | 'google';
  at: string;
}

/** The holder's account was closed, or moved to another address: this one is free for a new account. */
export interface ReleaseEmail {
  type: 'ReleaseEmail';
  userId: string;
  at: string;
}

export type EmailReservationCommand = ReserveEmail | VerifyEmail | ReleaseEmail;

/** Who holds the address, and whether they proved it is theirs; null while nobody holds it. */
export type EmailReservationState = { userId: string; verified: boolean } | null;
export type EmailReservationEvent = EventOf<'EmailReserved'> | EventOf<'EmailVerified'> | EventOf<'EmailReleased'>;

/**
 * `email-<lookup key>`: the stream name carries no address, nor anything to test one against
 * without the server's secret; the same for any spelling of one address.
 */
export const emailReservationStreamName = (keys: Pick<LookupKeys, 'email'>, email: string): string =>
  `${EMAIL_RESERVATION_STREAM_PREFIX}${keys.email(email)}`;

/**
 * One account per email. The command handler appends with the revision it read, "no stream" for a
 * free address, so of two concurrent reservations exactly one is stored; the other is decided
 * again on the fresh stream and reserves nothing. The caller compares the holder with its user.
 * Only the holder can verify the address, once.
 */
export const emailReservationDecider: Decider<EmailReservationCommand, EmailReservationEvent, EmailReservationState> = {
  initialState: () => null,

  decide(command, state) {
    switch (command.type) {
      case 'ReserveEmail':
        if (state) return [];
        return [{ type: 'EmailReserved', data: { userId: command.userId, at: command.at } }];
      case 'VerifyEmail':
        if (!state || state.userId !== command.userId) {
          throw new DomainError('conflict', 'This address belongs to another account');
        }
        if (state.verified) return [];
        return [{ type: 'EmailVerified', data: { userId: command.userId, via: command.via, at: command.at } }];
      case 'ReleaseEmail':
        // Someone else's since, or free already: nothing of this account's to release.
        if (!state || state.userId !== command.userId) return [];
        return [{ type: 'EmailReleased', data: { userId: command.userId, at: command.at } }];
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'EmailReserved':
        return state ?? { userId: event.data.userId, verified: false };
      case 'EmailVerified':
        return state && { ...state, verified: true };
      case 'EmailReleased':
        return null;
    }
  },
};
