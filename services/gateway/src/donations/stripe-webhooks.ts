import type { IncomingHttpHeaders } from 'node:http';
import { resourceId, type StripeWebhookAnswer } from '@qrshirt/contracts';
import { type DonationUseCases, DomainError, type ProcessorMessage } from '@qrshirt/core';
import type { Logger } from 'pino';
import Stripe from 'stripe';
import { HttpError } from '../http/http-error';

/** Stripe's tolerance, as its documentation sets it: a signature older than 5 minutes is refused. */
const TOLERANCE_SECONDS = 300;

export interface StripeWebhooks {
  /**
   * Verifies the delivery with the `stripe` package over the body's exact bytes before anything
   * else (400 when unsigned, badly signed, stale or altered: nothing recorded), then hands what
   * moves money to the donation use cases, each event once (by its id) and each payment once (by
   * its PaymentIntent). What no retry could change (another type, a fundraiser or payment not
   * ours) is answered 200 so that Stripe stops sending it, and logged.
   */
  receive(delivery: { headers: IncomingHttpHeaders; body: Buffer }, log: Logger): Promise<StripeWebhookAnswer>;
}

export function createStripeWebhooks({
  stripe,
  secret,
  donations,
}: {
  stripe: Stripe;
  /** The endpoint's signing secret, `whsec_…` */
  secret: string;
  donations: Pick<DonationUseCases, 'receiveProcessorMessage'>;
}): StripeWebhooks {
  return {
    async receive({ headers, body }, log) {
      const signature = headers['stripe-signature'];
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(body, signature ?? '', secret, TOLERANCE_SECONDS);
      } catch (error) {
        if (!(error instanceof Stripe.errors.StripeSignatureVerificationError)) throw error;
        log.warn({ reason: error.message }, 'Stripe webhook refused: not signed with our secret');
        throw new HttpError(400, `The Stripe signature was refused: ${firstLine(error.message)}`);
      }
      const message = donationMessage(event);
      if (typeof message === 'string') {
        if (message !== '') log.warn({ eventId: event.id, type: event.type }, `Stripe webhook ignored: ${message}`);
        return { outcome: 'ignored' };
      }
      try {
        return await donations.receiveProcessorMessage(`stripe:${event.id}`, message);
      } catch (error) {
        // An unknown fundraiser or payment, an amount out of bounds: Stripe would retry for three
        // days a message no retry can change, so an operator looks instead.
        if (!(error instanceof DomainError && (error.kind === 'not_found' || error.kind === 'validation'))) throw error;
        log.warn(
          { eventId: event.id, type: event.type, donationId: message.donationId, fundraiserId: message.fundraiserId },
          `Stripe webhook ignored: ${error.message}`,
        );
        return { outcome: 'ignored' };
      }
    },
  };
}

/**
 * What the event says about a donation, or why it says nothing ('' for the types that never move
 * money, which are not worth a log line).
 */
function donationMessage(event: Stripe.Event): ProcessorMessage | string {
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded': {
      const session = event.data.object;
      // A bank debit completes unpaid, and its money arrives with async_payment_succeeded.
      if (session.payment_status !== 'paid') return '';
      const { fundraiserId, reportId } = session.metadata ?? {};
      const paymentIntent = idOf(session.payment_intent);
      // Another integration on the same account may set metadata of its own.
      if (!ours(fundraiserId) || !paymentIntent) return 'a Checkout Session without our fundraiser or a PaymentIntent';
      if (session.currency !== 'usd' || session.amount_total === null) return `a payment in ${session.currency}`;
      return {
        type: 'donation.succeeded',
        donationId: paymentIntent,
        fundraiserId,
        amount: (session.amount_total / 100).toFixed(2),
        reportId: ours(reportId) ? reportId : null,
        live: event.livemode,
      };
    }
    case 'charge.refunded': {
      const charge = event.data.object;
      const paymentIntent = idOf(charge.payment_intent);
      if (!paymentIntent) return 'a refund of a charge without a PaymentIntent';
      return { type: 'donation.refunded', donationId: paymentIntent, refundedCents: charge.amount_refunded };
    }
    case 'charge.dispute.funds_withdrawn': {
      const dispute = event.data.object;
      const paymentIntent = idOf(dispute.payment_intent);
      if (!paymentIntent) return 'a dispute of a charge without a PaymentIntent';
      return {
        type: 'donation.funds_withdrawn',
        donationId: paymentIntent,
        disputeId: dispute.id,
        amountCents: dispute.amount,
      };
    }
    default:
      return '';
  }
}

/** Whether a metadata value is an id of ours, as the checkout wrote it. */
const ours = (value: string | undefined): value is string => resourceId.safeParse(value).success;

/** An id Stripe may send expanded into its object. */
const idOf = (value: string | { id: string } | null): string | null =>
  typeof value === 'string' ? value : (value?.id ?? null);

/** The package's messages go on with advice for developers over several lines. */
const firstLine = (text: string): string => text.split('\n')[0]!.trim();
