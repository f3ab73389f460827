import type {
  CheckoutRequest,
  CheckoutSession,
  DonateRequest,
  Donation,
  DonationWebhookAnswer,
  DonationWebhookPayload,
  Fundraiser,
} from '@qrshirt/contracts';
import { CHECKOUT_MAX_DOLLARS, CHECKOUT_MIN_DOLLARS, EMAIL_ADDRESS, MAX_IDEMPOTENCY_KEY } from '@qrshirt/contracts';
import type { Clock } from '../kit/clock';
import type { CommandHandler } from '../kit/command-handler';
import { DomainError } from '../kit/decider';
import type { AddressRecords } from '../ports/address-records';
import type { ChargeSettlements } from './charge-settlements';
import type { CheckoutSessions } from './checkout-sessions';
import { createDonationReceipts, type DonationReceiptDeps } from './donation-receipts';
import type { PayoutUseCases } from './payout-use-cases';
import {
  AMOUNT_INVALID,
  awaitsConfirmation,
  type DropReport,
  donationReportDecider,
  donationReportStreamName,
  parseAmountCents,
  reportIdFor,
} from './donation-report-decider';
import {
  type DatedMovement,
  donationWebhookDecider,
  donationWebhookStreamName,
  type Movement,
  processorDonationDecider,
  processorDonationStreamName,
} from './processor-donation-decider';

export interface DonationUseCaseDeps extends Pick<DonationReceiptDeps, 'catalogue' | 'sendReceipt'> {
  commands: CommandHandler;
  /** The fundraiser, or a not_found DomainError (the fundraiser use cases' `get`). */
  findFundraiser(this: void, id: string): Promise<Fundraiser>;
  /** The charity's name, for what the donor sees on the checkout; null when it cannot be read. */
  charityName(this: void, charityId: string): Promise<string | null>;
  /** The processor's hosted checkout (Stripe), or what answers that it is not configured. */
  checkoutSessions: CheckoutSessions;
  /** The fees and transfer of a charge the processor settled (Stripe). */
  chargeSettlements: ChargeSettlements;
  /** Where card donations to a charity are paid, and whether the processor takes real money. */
  payouts: Pick<PayoutUseCases, 'live' | 'destination'>;
  /**
   * Whether a report awaits confirmation only when a checkout of the product backs it: true while
   * Stripe takes donations, where any other report is anyone's word (the demo processor's and the
   * generic webhook's reports are still recorded, and settled, without awaiting).
   */
  reportsNeedCheckout: boolean;
  /** Where each donation's receipt address is noted, for its person's account to find. */
  addressRecords: Pick<AddressRecords, 'note'>;
  clock: Clock;
  newId: () => string;
}

function normalisedKey(idempotencyKey: string | undefined): string | null {
  const key = idempotencyKey?.trim();
  if (key === undefined || key === '') return null;
  if (key.length > MAX_IDEMPOTENCY_KEY) {
    throw new DomainError('validation', `Idempotency-Key must be at most ${MAX_IDEMPOTENCY_KEY} characters`);
  }
  return key;
}

const dollars = (amount: number) => `$${amount.toLocaleString('en-US', { minimumFractionDigits: 2 })}`;
const CHECKOUT_AMOUNT_RULE = `amount must be from ${dollars(CHECKOUT_MIN_DOLLARS)} to ${dollars(CHECKOUT_MAX_DOLLARS)}, what Stripe charges in USD`;

/** An address mail can go to, as the donor gave it; null for none or one no mail server would take. */
function receiptAddress(address: string | null | undefined): string | null {
  const trimmed = address?.trim() ?? '';
  return trimmed.length <= 320 && EMAIL_ADDRESS.test(trimmed) ? trimmed : null;
}

/**
 * A checkout's amount in cents, read as a report's is, within what Stripe charges: Stripe would
 * refuse anything else, after a round trip the donor waits for.
 */
function checkoutCents(amount: unknown): number {
  let cents: number;
  try {
    cents = parseAmountCents(amount);
  } catch (error) {
    // Beyond a report's bounds is beyond Stripe's too, whose rule is the one to read here.
    if (error instanceof DomainError && error.message !== AMOUNT_INVALID) {
      throw new DomainError('validation', CHECKOUT_AMOUNT_RULE);
    }
    throw error;
  }
  if (cents < Math.round(CHECKOUT_MIN_DOLLARS * 100) || cents > Math.round(CHECKOUT_MAX_DOLLARS * 100)) {
    throw new DomainError('validation', CHECKOUT_AMOUNT_RULE);
  }
  return cents;
}

/**
 * Donations: the page's reports, which await confirmation, and the processor's confirmations and
 * refunds, which are the money raised. Every decision reads one small stream (a report, a
 * processor donation, a webhook message), never the fundraiser's history, so a fundraiser with a
 * hundred thousand donations decides as fast as a new one.
 */
/** What a processor's verified message says, in its own ids (a Stripe PaymentIntent's, say). */
export type ProcessorMessage =
  | {
      type: 'donation.succeeded';
      donationId: string;
      fundraiserId: string;
      /** The charity the processor's checkout was made for; absent: the fundraiser's now. */
      charityId?: string;
      /** Dollars, by the widget's rule. */
      amount: unknown;
      reportId: string | null;
      live: boolean;
      /** The processor's date of the payment; absent: now. */
      paidAt?: string;
      /** The address the donor gave the processor's checkout, where its receipts go; absent or null: none. */
      receiptTo?: string | null;
    }
  | {
      /** A refund or a dispute of the payment, which may not have arrived yet. */
      type: 'donation.moved';
      donationId: string;
      /** Checked to exist when the processor names it. */
      fundraiserId?: string;
      movement: Movement;
      /** The processor's date of this step; absent: now. */
      movedAt?: string;
      /** Fees the step's own balance transactions charged or gave back (a dispute's fee). */
      fees?: DatedMovement[];
    }
  | {
      /** The processor settled a charge of the payment: its fees and transfer are asked of it. */
      type: 'donation.settled';
      donationId: string;
      /** Checked to exist when the processor names it. */
      fundraiserId?: string;
      /** The processor's charge (Stripe's `ch_…`). */
      chargeId: string;
    };

export function createDonationUseCases({
  commands,
  findFundraiser,
  charityName,
  checkoutSessions,
  chargeSettlements,
  payouts,
  reportsNeedCheckout,
  catalogue,
  sendReceipt,
  addressRecords,
  clock,
  newId,
}: DonationUseCaseDeps) {
  const receipts = createDonationReceipts({ commands, catalogue, sendReceipt, clock });

  /**
   * A verified processor message. A message id handled before changes nothing; a donation counts
   * once per processor donation id, and each refund or dispute moves its money once, whenever
   * it arrives: before its payment it is kept, and applied with the payment. The donor's receipt
   * of what the donation counts then is in the outbox before the message is remembered, last, so
   * a crash halfway leaves it to be handled again, which the donation's own streams make harmless.
   * An unknown fundraiser is a not_found DomainError, and nothing is written.
   */
  async function receive(
    messageId: string,
    message: ProcessorMessage,
    /** The processor's own name of the message's type, as it is remembered. */
    processorType: string,
  ): Promise<DonationWebhookAnswer> {
    const webhookStream = donationWebhookStreamName(messageId);
    if (await commands.loadState(webhookStream, donationWebhookDecider)) return { outcome: 'unchanged' };
    const fundraiser = message.fundraiserId === undefined ? null : await findFundraiser(message.fundraiserId);
    const at = clock().toISOString();
    const { donationId } = message;
    const donationStream = processorDonationStreamName(donationId);
    let outcome: DonationWebhookAnswer['outcome'];
    if (message.type === 'donation.succeeded') {
      // Refused before anything is written: a bad amount must not settle a report either.
      parseAmountCents(message.amount);
      const { payment: earlier } = await commands.loadState(donationStream, processorDonationDecider);
      const receiptTo = receiptAddress(message.receiptTo);
      // Noted before the ledger records it, so no address stored is one its person cannot find;
      // a payment recorded already had its address noted then.
      if (receiptTo !== null && !earlier)
        await addressRecords.note(receiptTo, { kind: 'donation-receipt', donationId });
      // The report first, then the money: in between, owners see a little less, never twice.
      // A repeat settles the report the first delivery named (it may have stopped in between).
      const reportId = earlier ? earlier.reportId : message.reportId;
      if (reportId !== null) {
        await commands.handle(donationReportStreamName(reportId), donationReportDecider, () => ({
          type: 'ConfirmReport',
          reportId,
          fundraiserId: earlier?.fundraiserId ?? message.fundraiserId,
          donationId,
          at,
        }));
      }
      const { events } = await commands.handle(donationStream, processorDonationDecider, () => ({
        type: 'ConfirmDonation',
        donationId,
        fundraiserId: message.fundraiserId,
        charityId: message.charityId ?? fundraiser!.charityId,
        amount: message.amount,
        reportId,
        live: message.live,
        paidAt: message.paidAt ?? at,
        receiptTo,
        at,
      }));
      outcome = events.length > 0 ? 'confirmed' : 'unchanged';
    } else if (message.type === 'donation.settled') {
      // Asked before anything is written: a processor that fails leaves the message to its retry.
      const movements = await chargeSettlements.settlement(message.chargeId);
      const { events } = await commands.handle(donationStream, processorDonationDecider, () => ({
        type: 'RecordMovements',
        donationId,
        movements,
        at,
      }));
      outcome = events.length > 0 ? 'recorded' : 'unchanged';
    } else {
      const movedAt = message.movedAt ?? at;
      const { events } = await commands.handle(donationStream, processorDonationDecider, () => ({
        type: 'RecordMovements',
        donationId,
        movements: [{ movement: message.movement, movedAt }, ...(message.fees ?? [])],
        at,
      }));
      let net = 0;
      for (const event of events) {
        if (event.type === 'DonationRefunded') net -= event.data.amountCents;
        if (event.type === 'DonationRestored') net += event.data.amountCents;
      }
      // Recorded only: the payment has not arrived, or the step moves no money (a refund succeeding).
      outcome = net < 0 ? 'refunded' : net > 0 ? 'restored' : events.length > 0 ? 'recorded' : 'unchanged';
    }
    await receipts.mailDue(donationId);
    await commands.handle(webhookStream, donationWebhookDecider, () => ({
      type: 'RecordWebhook',
      webhookId: messageId,
      webhookType: processorType,
      donationId,
      at,
    }));
    return { outcome };
  }

  return {
    /**
     * Records the widget's report once per Idempotency-Key: a retry answers the report already
     * recorded (`created` false), the same key with another amount is a conflict. A report counts
     * as awaiting confirmation, never as raised.
     */
    async report(
      fundraiserId: string,
      input: DonateRequest,
      idempotencyKey?: string,
    ): Promise<{ created: boolean; donation: Donation }> {
      const key = normalisedKey(idempotencyKey);
      await findFundraiser(fundraiserId);
      const reportId = key ? reportIdFor(fundraiserId, key) : newId();
      const { events, state } = await commands.handle(
        donationReportStreamName(reportId),
        donationReportDecider,
        () => ({
          type: 'ReportDonation',
          reportId,
          fundraiserId,
          amount: input.amount,
          idempotencyKey: key,
          source: input.source ?? 'widget',
          needsCheckout: reportsNeedCheckout,
          at: clock().toISOString(),
        }),
        // Two concurrent retries append the same event id: the store keeps one.
        { eventId: () => reportId },
      );
      const reported = events[0]?.type === 'DonationReported' ? events[0].data : undefined;
      return {
        created: reported !== undefined,
        donation: {
          id: reportId,
          fundraiserId,
          amount: (reported?.amountCents ?? state.report?.amountCents ?? 0) / 100,
          currency: 'USD',
          awaitingConfirmation: awaitsConfirmation(state),
        },
      };
    },

    /**
     * Starts a donation in the processor's checkout, paid to the charity's connected account when
     * it has one. Its session names the report that the page's report under the same
     * Idempotency-Key will have, so the processor's confirmation settles that report, and the
     * checkout is recorded in that report's stream: the report it backs is one a donor was on the
     * way to paying, not anyone's word.
     */
    async checkout(fundraiserId: string, input: CheckoutRequest, idempotencyKey?: string): Promise<CheckoutSession> {
      const key = normalisedKey(idempotencyKey);
      const fundraiser = await findFundraiser(fundraiserId);
      // Money for a shirt nobody has claimed would count for no one, and nobody could see it.
      if (fundraiser.userId === null) throw new DomainError('not_found', 'Fundraiser not found');
      const amountCents = checkoutCents(input.amount);
      const charity = await charityName(fundraiser.charityId);
      const destination = await payouts.destination(fundraiser.charityId);
      // Real money for a charity Stripe cannot pay would wait in the platform's account for a
      // hand-made payout: with live keys, only connected charities take cards.
      if (destination === null && payouts.live) {
        throw new DomainError('conflict', `${charity ?? 'This charity'} cannot take card donations here yet`);
      }
      const reportId = key ? reportIdFor(fundraiserId, key) : newId();
      const { clientSecret, sessionId } = await checkoutSessions.createCheckoutSession({
        fundraiserId,
        charityId: fundraiser.charityId,
        destination,
        reportId,
        amountCents,
        productName: charity ? `Donation to ${charity}` : 'Donation',
        productDescription: `Through the QR shirt fundraiser "${fundraiser.name}"`,
        idempotencyKey: key,
      });
      // After the processor answered: a retry gets the same session, and records nothing new.
      await commands.handle(donationReportStreamName(reportId), donationReportDecider, () => ({
        type: 'RecordCheckout',
        reportId,
        fundraiserId,
        charityId: fundraiser.charityId,
        amountCents,
        sessionId,
        live: payouts.live,
        at: clock().toISOString(),
      }));
      return { clientSecret };
    },

    /**
     * The processor's word that a report's payment will not come (its checkout expired unpaid, its
     * delayed payment failed): the report stops awaiting confirmation, once, unless the money was
     * confirmed. `fundraiserId` is the processor's checkout's, for a report not filed yet.
     */
    async dropReport({
      reportId,
      fundraiserId,
      reason,
    }: Pick<DropReport, 'reportId' | 'fundraiserId' | 'reason'>): Promise<{ outcome: 'dropped' | 'unchanged' }> {
      const { events } = await commands.handle(donationReportStreamName(reportId), donationReportDecider, () => ({
        type: 'DropReport',
        reportId,
        fundraiserId,
        reason,
        at: clock().toISOString(),
      }));
      return { outcome: events.length > 0 ? 'dropped' : 'unchanged' };
    },

    /**
     * A verified webhook of the generic processor (Standard Webhooks): its fundraiser must exist,
     * a refund takes back the whole donation (kept until its confirmation, if that comes later).
     */
    async receiveProcessorEvent(
      webhookId: string,
      { type, data }: DonationWebhookPayload,
    ): Promise<DonationWebhookAnswer> {
      if (type === 'donation.succeeded') {
        return receive(
          webhookId,
          {
            type,
            donationId: data.donationId,
            fundraiserId: data.fundraiserId,
            amount: data.amount,
            reportId: data.reportId ?? null,
            live: data.live,
          },
          type,
        );
      }
      return receive(
        webhookId,
        {
          type: 'donation.moved',
          donationId: data.donationId,
          fundraiserId: data.fundraiserId,
          movement: { kind: 'refunded-total', refundedCents: null },
        },
        type,
      );
    },

    receiveProcessorMessage: receive,
  };
}
export type DonationUseCases = ReturnType<typeof createDonationUseCases>;
