import type {
  CheckoutRequest,
  CheckoutSession,
  DonateRequest,
  Donation,
  DonationWebhookAnswer,
  DonationWebhookPayload,
  Fundraiser,
} from '@qrshirt/contracts';
import { MAX_IDEMPOTENCY_KEY } from '@qrshirt/contracts';
import type { Clock } from '../kit/clock';
import type { CommandHandler } from '../kit/command-handler';
import { DomainError } from '../kit/decider';
import type { CheckoutSessions } from './checkout-sessions';
import {
  donationReportDecider,
  donationReportStreamName,
  parseAmountCents,
  reportIdFor,
} from './donation-report-decider';
import {
  donationWebhookDecider,
  donationWebhookStreamName,
  processorDonationDecider,
  processorDonationStreamName,
} from './processor-donation-decider';

export interface DonationUseCaseDeps {
  commands: CommandHandler;
  /** The fundraiser, or a not_found DomainError (the fundraiser use cases' `get`). */
  findFundraiser(this: void, id: string): Promise<Fundraiser>;
  /** The charity's name, for what the donor sees on the checkout; null when it cannot be read. */
  charityName(this: void, charityId: string): Promise<string | null>;
  /** The processor's hosted checkout (Stripe), or what answers that it is not configured. */
  checkoutSessions: CheckoutSessions;
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
      /** Dollars, by the widget's rule. */
      amount: unknown;
      reportId: string | null;
      live: boolean;
    }
  | {
      type: 'donation.refunded';
      donationId: string;
      /** Checked to exist when the processor names it. */
      fundraiserId?: string;
      /** The processor's running total of what it refunded; absent: the whole donation. */
      refundedCents?: number;
    }
  | {
      type: 'donation.funds_withdrawn';
      donationId: string;
      fundraiserId?: undefined;
      disputeId: string;
      amountCents: number;
    };

export function createDonationUseCases({
  commands,
  findFundraiser,
  charityName,
  checkoutSessions,
  clock,
  newId,
}: DonationUseCaseDeps) {
  /**
   * A verified processor message. A message id handled before changes nothing; a donation counts
   * once per processor donation id, and what is refunded comes off once. The message is
   * remembered last, so a crash halfway leaves it to be handled again, which the donation's own
   * stream makes harmless. An unknown fundraiser, or money taken back from a donation never
   * confirmed, is a not_found DomainError, and nothing is written.
   */
  async function receive(messageId: string, message: ProcessorMessage): Promise<DonationWebhookAnswer> {
    const webhookStream = donationWebhookStreamName(messageId);
    if (await commands.loadState(webhookStream, donationWebhookDecider)) return { outcome: 'unchanged' };
    if (message.fundraiserId !== undefined) await findFundraiser(message.fundraiserId);
    const at = clock().toISOString();
    const { donationId } = message;
    const donationStream = processorDonationStreamName(donationId);
    let outcome: DonationWebhookAnswer['outcome'];
    if (message.type === 'donation.succeeded') {
      // Refused before anything is written: a bad amount must not settle a report either.
      parseAmountCents(message.amount);
      const earlier = await commands.loadState(donationStream, processorDonationDecider);
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
        amount: message.amount,
        reportId,
        live: message.live,
        at,
      }));
      outcome = events.length > 0 ? 'confirmed' : 'unchanged';
    } else {
      const { events } = await commands.handle(donationStream, processorDonationDecider, () =>
        message.type === 'donation.refunded'
          ? {
              type: 'RefundDonation',
              donationId,
              ...(message.refundedCents !== undefined && { refundedCents: message.refundedCents }),
              at,
            }
          : {
              type: 'WithdrawDisputedFunds',
              donationId,
              disputeId: message.disputeId,
              amountCents: message.amountCents,
              at,
            },
      );
      outcome = events.length > 0 ? 'refunded' : 'unchanged';
    }
    await commands.handle(webhookStream, donationWebhookDecider, () => ({
      type: 'RecordWebhook',
      webhookId: messageId,
      webhookType: message.type,
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
          amount: (reported?.amountCents ?? state?.report?.amountCents ?? 0) / 100,
          currency: 'USD',
        },
      };
    },

    /**
     * Starts a donation in the processor's checkout. Its session names the report that the page's
     * report under the same Idempotency-Key will have, so the processor's confirmation settles
     * that report. Nothing is recorded here: a checkout may well be abandoned.
     */
    async checkout(fundraiserId: string, input: CheckoutRequest, idempotencyKey?: string): Promise<CheckoutSession> {
      const key = normalisedKey(idempotencyKey);
      const fundraiser = await findFundraiser(fundraiserId);
      // Money for a shirt nobody has claimed would count for no one, and nobody could see it.
      if (fundraiser.userId === null) throw new DomainError('not_found', 'Fundraiser not found');
      const amountCents = parseAmountCents(input.amount);
      const charity = await charityName(fundraiser.charityId);
      return checkoutSessions.createCheckoutSession({
        fundraiserId,
        reportId: key ? reportIdFor(fundraiserId, key) : newId(),
        amountCents,
        productName: charity ? `Donation to ${charity}` : 'Donation',
        productDescription: `Through the QR shirt fundraiser "${fundraiser.name}"`,
        idempotencyKey: key,
      });
    },

    /**
     * A verified webhook of the generic processor (Standard Webhooks): its fundraiser must exist,
     * a refund takes back the whole donation.
     */
    async receiveProcessorEvent(
      webhookId: string,
      { type, data }: DonationWebhookPayload,
    ): Promise<DonationWebhookAnswer> {
      if (type === 'donation.succeeded') {
        return receive(webhookId, {
          type,
          donationId: data.donationId,
          fundraiserId: data.fundraiserId,
          amount: data.amount,
          reportId: data.reportId ?? null,
          live: data.live ?? true,
        });
      }
      return receive(webhookId, { type, donationId: data.donationId, fundraiserId: data.fundraiserId });
    },

    receiveProcessorMessage: receive,
  };
}
export type DonationUseCases = ReturnType<typeof createDonationUseCases>;
