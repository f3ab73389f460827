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
import { donationWebhookDecider, donationWebhookStreamName } from './donation-webhook-decider';
import { processorDonationDecider, processorDonationStreamName } from './processor-donation-decider';

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
export function createDonationUseCases({
  commands,
  findFundraiser,
  charityName,
  checkoutSessions,
  clock,
  newId,
}: DonationUseCaseDeps) {
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
     * A verified processor webhook. A message id handled before changes nothing; a donation counts
     * once per processor donation id and is refunded once. The message is remembered last, so a
     * crash halfway leaves it to be handled again, which the donation's own stream makes harmless.
     */
    async receiveProcessorEvent(webhookId: string, payload: DonationWebhookPayload): Promise<DonationWebhookAnswer> {
      const { type, data } = payload;
      const webhookStream = donationWebhookStreamName(webhookId);
      if (await commands.loadState(webhookStream, donationWebhookDecider)) return { outcome: 'unchanged' };
      await findFundraiser(data.fundraiserId);
      const at = clock().toISOString();
      const donationStream = processorDonationStreamName(data.donationId);
      let outcome: DonationWebhookAnswer['outcome'];
      if (type === 'donation.succeeded') {
        // Refused before anything is written: a bad amount must not settle a report either.
        parseAmountCents(data.amount);
        const earlier = await commands.loadState(donationStream, processorDonationDecider);
        // The report first, then the money: in between, owners see a little less, never twice.
        // A repeat settles the report the first delivery named (it may have stopped in between).
        const reportId = earlier ? earlier.reportId : (data.reportId ?? null);
        if (reportId !== null) {
          await commands.handle(donationReportStreamName(reportId), donationReportDecider, () => ({
            type: 'ConfirmReport',
            reportId,
            fundraiserId: earlier?.fundraiserId ?? data.fundraiserId,
            donationId: data.donationId,
            at,
          }));
        }
        const { events } = await commands.handle(donationStream, processorDonationDecider, () => ({
          type: 'ConfirmDonation',
          donationId: data.donationId,
          fundraiserId: data.fundraiserId,
          amount: data.amount,
          reportId,
          live: data.live ?? true,
          at,
        }));
        outcome = events.length > 0 ? 'confirmed' : 'unchanged';
      } else {
        const { events } = await commands.handle(donationStream, processorDonationDecider, () => ({
          type: 'RefundDonation',
          donationId: data.donationId,
          at,
        }));
        outcome = events.length > 0 ? 'refunded' : 'unchanged';
      }
      await commands.handle(webhookStream, donationWebhookDecider, () => ({
        type: 'RecordWebhook',
        webhookId,
        webhookType: type,
        donationId: data.donationId,
        at,
      }));
      return { outcome };
    },
  };
}
export type DonationUseCases = ReturnType<typeof createDonationUseCases>;
