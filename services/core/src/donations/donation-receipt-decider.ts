import type { EventOf } from '@qrshirt/contracts';
import type { Decider } from '../kit/decider';

/** A receipt saying the donation counts `countsCents` is stored in the outbox for its donor. */
export interface RecordReceipt {
  type: 'RecordReceipt';
  donationId: string;
  countsCents: number;
  at: string;
}

export type DonationReceiptEvent = EventOf<'DonationReceiptMailed'>;

export interface DonationReceiptState {
  /** How many receipts were mailed: the next one's number. */
  mailed: number;
  /** What the last one said the donation counts; null before the first. */
  countsCents: number | null;
}

export const donationReceiptStreamName = (donationId: string): string => `donation-receipt-${donationId}`;

/**
 * The receipts of one processor donation: a receipt is due when what the donation counts differs
 * from what the last one said, so a step of a refund or dispute that moves no money, or the same
 * movement told again, mails nothing, however long after the last receipt it comes.
 */
export const donationReceiptDecider: Decider<RecordReceipt, DonationReceiptEvent, DonationReceiptState> = {
  initialState: () => ({ mailed: 0, countsCents: null }),

  decide({ donationId, countsCents, at }, state) {
    if (state.countsCents === countsCents) return [];
    return [{ type: 'DonationReceiptMailed', data: { donationId, countsCents, at } }];
  },

  evolve(state, event) {
    return { mailed: state.mailed + 1, countsCents: event.data.countsCents };
  },
};
