import type { EventOf } from '@qrshirt/contracts';
import type { Decider } from './decider';
import { emailKey } from './email-address';

export interface ReserveEmail {
  type: 'ReserveEmail';
  userId: string;
  at: string;
}

/** Who holds the address; null while nobody does. */
export type EmailReservationState = { userId: string } | null;
export type EmailReservationEvent = EventOf<'EmailReserved'>;

/** Hashed, so the stream name carries no address; the same for any spelling of one address. */
export const emailReservationStreamName = (email: string): string => `email-${emailKey(email)}`;

/**
 * One account per email. The command handler appends with the revision it read, "no stream" for a
 * free address, so of two concurrent reservations exactly one is stored; the other is decided
 * again on the fresh stream and reserves nothing. The caller compares the holder with its user.
 */
export const emailReservationDecider: Decider<ReserveEmail, EmailReservationEvent, EmailReservationState> = {
  initialState: () => null,

  decide(command, state) {
    if (state) return [];
    return [{ type: 'EmailReserved', data: { userId: command.userId, at: command.at } }];
  },

  evolve(state, event) {
    return state ?? { userId: event.data.userId };
  },
};
