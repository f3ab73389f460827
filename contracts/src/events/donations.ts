import { z } from 'zod';
import { defineEvent, isoInstant } from './define-event';

/*
 * Donations in two kinds of facts. What the page around the widget says (POST /donate) is a
 * *report*: anyone can send one, so it counts only as "awaiting confirmation". What the donation
 * processor confirms through its signed webhook is *raised* money. Each fact lives in a small
 * stream of its own, so a decision never folds a fundraiser's whole history:
 *
 * | stream                              | events                                        |
 * |-------------------------------------|-----------------------------------------------|
 * | `donation-report-<reportId>`        | DonationCheckoutCreated, DonationReported,    |
 * |                                     | DonationReportConfirmed, DonationReportDropped|
 * | `processor-donation-<donationId>`   | DonationConfirmed, DonationRefunded,          |
 * |                                     | DonationRestored, DonationMovementRecorded,   |
 * |                                     | DonationFeeCharged, DonationReceiptAddressed  |
 * | `donation-webhook-<sha256(id)>`     | DonationWebhookReceived                       |
 * | `donation-receipt-<donationId>`     | DonationReceiptMailed                         |
 *
 * Every event names its fundraiser and carries what the projectors add or take away, because a
 * projector never reads. A processor donation's money events are a ledger: each movement is dated
 * by the processor (`at`) and names the charity the donation was made to, fixed at payment.
 */

/**
 * The product created a processor's checkout (a Stripe Checkout Session) for the report
 * `reportId`, which the page files under the same Idempotency-Key once the donor has paid: while
 * Stripe takes donations, only a report a checkout backs counts as awaiting confirmation. It is
 * the whole record of the session the product made: which report, fundraiser and charity, how
 * much, and in which mode.
 */
export const DonationCheckoutCreated = defineEvent(
  'DonationCheckoutCreated',
  z.object({
    reportId: z.string().min(1),
    fundraiserId: z.string().min(1),
    /** The charity the checkout pays (the fundraiser's then); absent in events recorded before it was kept. */
    charityId: z.string().min(1).optional(),
    amountCents: z.number().int().positive(),
    /** The processor's id of the checkout (`cs_…`). */
    sessionId: z.string().min(1),
    /** Made with live keys, for real money; absent in events recorded before it was kept. */
    live: z.boolean().optional(),
    at: isoInstant,
  }),
);

/**
 * The widget's report, as POST /api/fundraisers/{id}/donate received it. `reportId` is what that
 * route answers as the donation's id (derived from the Idempotency-Key when one came).
 */
export const DonationReported = defineEvent(
  'DonationReported',
  z.object({
    reportId: z.string().min(1),
    fundraiserId: z.string().min(1),
    amountCents: z.number().int().positive(),
    currency: z.literal('USD'),
    source: z.string().min(1),
    /** The client's Idempotency-Key, when it sent one: a retry with it records nothing new. */
    idempotencyKey: z.string().min(1).nullable(),
    /**
     * The processor's donation that had already confirmed this report when it arrived (webhooks
     * may overtake the page): such a report awaits nothing. Null: it awaits confirmation.
     */
    confirmedBy: z.string().min(1).nullable(),
    /**
     * Whether it counts as awaiting confirmation (for 24 h from `at`): not when it arrived
     * confirmed or dropped, nor, while Stripe takes donations, when no checkout of the product
     * backs it. Absent on events written before: it awaits unless `confirmedBy` says otherwise.
     */
    awaiting: z.boolean().optional(),
    at: isoInstant,
  }),
);

/**
 * A processor's donation named this report (`reportId` in its webhook): the report no longer
 * awaits confirmation. `pendingCents` is the reported amount that stops awaiting, 0 when the
 * confirmation came before the report.
 */
export const DonationReportConfirmed = defineEvent(
  'DonationReportConfirmed',
  z.object({
    reportId: z.string().min(1),
    fundraiserId: z.string().min(1),
    donationId: z.string().min(1),
    pendingCents: z.number().int().nonnegative(),
    /** When the report was made, whose awaiting money this takes back; absent before expiry, or with no report yet. */
    reportedAt: isoInstant.optional(),
    at: isoInstant,
  }),
);

export const reportDropReasons = ['payment_failed', 'checkout_expired'] as const;

/**
 * The processor said the report's payment will not come: its checkout expired unpaid, or its
 * delayed payment (a bank debit) failed. The report stops awaiting confirmation; one that
 * arrives later awaits nothing. `pendingCents` is what stops awaiting, 0 when it awaited nothing.
 */
export const DonationReportDropped = defineEvent(
  'DonationReportDropped',
  z.object({
    reportId: z.string().min(1),
    fundraiserId: z.string().min(1),
    pendingCents: z.number().int().nonnegative(),
    reason: z.enum(reportDropReasons),
    /** When the report was made; absent when none had arrived. */
    reportedAt: isoInstant.optional(),
    at: isoInstant,
  }),
);

/** The processor's signed `donation.succeeded`: money raised, once per processor donation id. */
export const DonationConfirmed = defineEvent(
  'DonationConfirmed',
  z.object({
    /** The processor's id of the donation (a Stripe PaymentIntent's). */
    donationId: z.string().min(1),
    fundraiserId: z.string().min(1),
    /**
     * The charity the donation was made to, fixed at payment: a later re-point of the fundraiser
     * never moves it. Absent on events written before the ledger.
     */
    charityId: z.string().min(1).optional(),
    amountCents: z.number().int().positive(),
    currency: z.literal('USD'),
    /** The report the processor named, if it named one. */
    reportId: z.string().min(1).nullable(),
    /**
     * Real money (true) or a processor's test money (false), which is reported beside the money
     * raised and never added to it. Absent on events written before the two were told apart: live.
     */
    live: z.boolean().optional(),
    /** When the processor took the payment (before the ledger: when the webhook arrived). */
    at: isoInstant,
  }),
);

/** What every movement of a confirmed donation's money says, taken away or given back. */
const movedMoney = {
  donationId: z.string().min(1),
  fundraiserId: z.string().min(1),
  /** The donation's charity (absent before the ledger). */
  charityId: z.string().min(1).optional(),
  /** What this movement takes away or gives back. */
  amountCents: z.number().int().positive(),
  currency: z.literal('USD'),
  donatedAt: isoInstant,
  /** The processor's refund, when it named one. */
  refundId: z.string().min(1).optional(),
  /** The processor's dispute whose funds moved; absent for a refund. */
  disputeId: z.string().min(1).optional(),
  /** The donation's `live` (absent: live). */
  live: z.boolean().optional(),
  /** The processor's date of the movement. */
  at: isoInstant,
};

/**
 * Money of a confirmed donation that no longer counts: the processor refunded it (wholly, or in
 * part: `amountCents` is what this movement takes away) or withdrew it for a dispute. Booked on
 * its own date (`at`, the processor's), so a period already stated never changes; `donatedAt` is
 * the confirmation's.
 */
export const DonationRefunded = defineEvent(
  'DonationRefunded',
  z.object({
    ...movedMoney,
    /**
     * What still counts of the donation after this; above 0 it still counts as a donation. Absent
     * on events written before partial refunds, which took the whole donation: 0.
     */
    remainingCents: z.number().int().nonnegative().optional(),
  }),
);

/**
 * Money taken away from a donation that counts again: a refund failed or was canceled, or a
 * dispute was won and its funds reinstated. Booked on its own date, as a refund is.
 */
export const DonationRestored = defineEvent(
  'DonationRestored',
  z.object({
    ...movedMoney,
    /** What counts of the donation after this: equal to `amountCents` when it counted nothing before. */
    remainingCents: z.number().int().positive(),
  }),
);

export const refundStatuses = ['requires_action', 'pending', 'succeeded', 'failed', 'canceled'] as const;

/** Who a fee is for: the processor (Stripe's processing or dispute fee), or the platform's share (Stripe's application fee). */
export const feeRecipients = ['processor', 'platform'] as const;

/**
 * What the processor's balance says of a payment beside its money: a fee one of its balance
 * transactions charged (or gave back), and the payment paid on to the charity's own account.
 * Balance transactions and transfers never change, so each is recorded once by its id.
 */
const balanceMovements = [
  z.object({
    kind: z.literal('fee'),
    /** The processor's balance transaction that charged it (Stripe's `txn_…`). */
    balanceTransactionId: z.string().min(1),
    to: z.enum(feeRecipients),
    /** Negative: a fee given back. */
    amountCents: z.number().int(),
  }),
  z.object({
    kind: z.literal('transfer'),
    /** Stripe Connect's `tr_…` */
    transferId: z.string().min(1),
    /** The charity's connected account (`acct_…`). */
    destination: z.string().min(1),
    amountCents: z.number().int().positive(),
  }),
] as const;

/**
 * What the processor said about one refund, dispute, fee or transfer of a payment, merged with
 * what it said before (a refund's status only moves forward; a dispute's steps only add up),
 * whether or not the payment has arrived yet: the money and fee events follow from these facts,
 * so any delivery order gives the same figures. Projectors ignore it; reconciling reads transfers.
 */
export const DonationMovementRecorded = defineEvent(
  'DonationMovementRecorded',
  z.object({
    donationId: z.string().min(1),
    movement: z.discriminatedUnion('kind', [
      z.object({
        kind: z.literal('refund'),
        refundId: z.string().min(1),
        amountCents: z.number().int().positive(),
        status: z.enum(refundStatuses),
      }),
      /** A processor that names no refunds: everything refunded so far (`null`: the whole payment). */
      z.object({ kind: z.literal('refunded-total'), refundedCents: z.number().int().nonnegative().nullable() }),
      z.object({
        kind: z.literal('dispute'),
        disputeId: z.string().min(1),
        amountCents: z.number().int().positive(),
        withdrawn: z.boolean(),
        /** Reinstated, or closed as won. */
        won: z.boolean(),
      }),
      ...balanceMovements,
    ]),
    /** The processor's date of the step. */
    movedAt: isoInstant,
    at: isoInstant,
  }),
);

/**
 * A fee on a confirmed donation, booked on the date of the processor's balance transaction that
 * charged it, naming the donation's charity: the processor's (Stripe's processing fee, a
 * dispute's fee) or the platform's share. Never part of the money raised: the statement's fees,
 * and its net (raised less fees). Negative: a fee given back.
 */
export const DonationFeeCharged = defineEvent(
  'DonationFeeCharged',
  z.object({
    donationId: z.string().min(1),
    fundraiserId: z.string().min(1),
    /** The donation's charity (absent when its payment came before the ledger). */
    charityId: z.string().min(1).optional(),
    balanceTransactionId: z.string().min(1),
    to: z.enum(feeRecipients),
    amountCents: z.number().int(),
    currency: z.literal('USD'),
    donatedAt: isoInstant,
    live: z.boolean(),
    at: isoInstant,
  }),
);

/** A webhook message handled: another delivery with this `webhook-id` changes nothing. */
export const DonationWebhookReceived = defineEvent(
  'DonationWebhookReceived',
  z.object({
    webhookId: z.string().min(1),
    type: z.string().min(1),
    donationId: z.string().min(1),
    at: isoInstant,
  }),
);

/** Whether a confirmed or refunded donation is real money: events from before the flag are. */
export const isLiveMoney = (data: { live?: boolean }): boolean => data.live !== false;

/**
 * Where the donor wants the donation's receipts: the address they gave the processor's checkout
 * (Stripe's `customer_details.email`). Personal data, sealed under the donation's own subject
 * (`donorDataSubject`); an event of its own beside the confirmation, in the same append, so that
 * the money events, which statements and reconciliations read, hold nobody's address.
 */
export const DonationReceiptAddressed = defineEvent(
  'DonationReceiptAddressed',
  z.object({
    donationId: z.string().min(1),
    /** Null when read after the donor was erased, which destroyed the subject's key. */
    email: z.string().min(1).nullable(),
    at: isoInstant,
  }),
);

/**
 * A receipt stored in the outbox for the donor, saying the donation counts `countsCents`: the
 * first once the payment is confirmed, then one each time a refund, a failed refund or a dispute
 * changes that. Its own stream, so the ledger's decisions never wait on mail.
 */
export const DonationReceiptMailed = defineEvent(
  'DonationReceiptMailed',
  z.object({
    donationId: z.string().min(1),
    countsCents: z.number().int().nonnegative(),
    at: isoInstant,
  }),
);
