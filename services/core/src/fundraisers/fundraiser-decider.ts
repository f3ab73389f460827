import type { EventOf } from '@qrshirt/contracts';
import type { CharityState } from '../charities/charity-decider';
import { type Decider, DomainError } from '../event-sourcing/decider';
import { type LookupList, findIn, prepend } from '../event-sourcing/lookup-list';
import type { ShirtState } from '../shirts/shirt-decider';

export const AMOUNT_INVALID = 'amount must be a number greater than 0';
/** A ceiling far above any real donation, so a typo or a forged request cannot inflate the totals. */
export const MAX_DONATION_CENTS = 100_000_000;

/** Plain decimal dollars: digits with an optional fraction. No sign, exponent or hex. */
const decimalDollars = /^(?=\.?\d)(\d*)(?:\.(\d*))?$/;

/**
 * The widget's amount in integer cents. Spec section 5: a number, or a string with quotes
 * stripped, parsed to a number, which must be above 0. Rounding works on the decimal text, not
 * on a float, so 19.99 is 1999 and 1.005 is 101: half a cent rounds away from zero.
 */
export function parseAmountCents(amount: unknown): number {
  const text = decimalText(amount);
  const match = decimalDollars.exec(text);
  if (!match) throw new DomainError('validation', AMOUNT_INVALID);
  const whole = match[1] ?? '';
  const fraction = `${match[2] ?? ''}000`;
  const truncated = Number(whole || '0') * 100 + Number(fraction.slice(0, 2));
  const cents = fraction.charAt(2) >= '5' ? truncated + 1 : truncated;
  if (cents > MAX_DONATION_CENTS) {
    throw new DomainError('validation', `amount must be at most ${MAX_DONATION_CENTS / 100}`);
  }
  if (cents === 0) {
    throw new DomainError('validation', /[1-9]/.test(text) ? 'amount must be at least 0.01' : AMOUNT_INVALID);
  }
  return cents;
}

/** The amount as decimal text; '' (which never matches) for anything that is not a positive number. */
function decimalText(amount: unknown): string {
  // Blanks and quotes around the number, as the widget may wrap it; none inside it.
  if (typeof amount === 'string') return amount.replace(/^[\s"']+|[\s"']+$/g, '');
  if (typeof amount !== 'number' || !Number.isFinite(amount) || amount <= 0) return '';
  // String() gives the shortest text that reads back as this number: what the sender wrote.
  // It uses an exponent only below 1e-6 or from 1e21 on, where exact digits serve as well.
  const text = String(amount);
  if (!text.includes('e')) return text;
  return amount < 1 ? amount.toFixed(20) : BigInt(amount).toString();
}

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
