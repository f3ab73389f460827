import type { IncomingHttpHeaders } from 'node:http';
import { refundStatuses, type reportDropReasons, resourceId, type StripeWebhookAnswer } from '@qrshirt/contracts';
import { type DonationUseCases, DomainError, type PayoutUseCases, type ProcessorMessage } from '@qrshirt/core';
import type { Logger } from 'pino';
import Stripe from 'stripe';
import { HttpError } from '../http/http-error';
import type { CheckoutSigner } from './checkout-signature';

/** Stripe's tolerance, as its documentation sets it: a signature older than 5 minutes is refused. */
const TOLERANCE_SECONDS = 300;

export interface StripeWebhooks {
  /**
   * Verifies the delivery with the `stripe` package over the body's exact bytes before anything
   * else (400 when unsigned, badly signed, stale, dated ahead or altered: nothing recorded), then hands what
   * moves money to the donation use cases, each event once (by its id) and each payment once (by
   * its PaymentIntent). A refund or dispute of a payment not seen yet is recorded and applied
   * when the payment arrives. A session of ours that expired unpaid or whose payment failed drops
   * the report it names. What no retry could change (another type, a session the product
   * did not create, a connected account's event, a fundraiser gone) is answered 200 so that
   * Stripe stops sending it, and logged.
   */
  receive(delivery: { headers: IncomingHttpHeaders; body: Buffer }, log: Logger): Promise<StripeWebhookAnswer>;
}

export function createStripeWebhooks({
  stripe,
  secrets,
  signer,
  donations,
  payouts,
}: {
  stripe: Stripe;
  /** The signing secrets (`whsec_…`) of the platform's endpoint and of its Connect endpoint, if any. */
  secrets: readonly string[];
  /** What signed the metadata of the product's own Checkout Sessions. */
  signer: CheckoutSigner;
  donations: Pick<DonationUseCases, 'receiveProcessorMessage' | 'dropReport'>;
  /** Keeps what Stripe says of the charities' connected accounts. */
  payouts: Pick<PayoutUseCases, 'described'>;
}): StripeWebhooks {
  return {
    async receive({ headers, body }, log) {
      const signature = headers['stripe-signature'];
      let event: Stripe.Event | undefined;
      let refusal: Error | undefined;
      // Stripe signs the platform's events and the connected accounts' with each endpoint's secret.
      for (const endpointSecret of secrets) {
        try {
          event = stripe.webhooks.constructEvent(body, signature ?? '', endpointSecret, TOLERANCE_SECONDS);
          break;
        } catch (error) {
          if (!(error instanceof Stripe.errors.StripeSignatureVerificationError)) throw error;
          refusal ??= error;
        }
      }
      if (!event) {
        log.warn({ reason: refusal!.message }, 'Stripe webhook refused: not signed with our secret');
        throw new HttpError(400, `The Stripe signature was refused: ${firstLine(refusal!.message)}`);
      }
      // constructEvent refuses a signature too old, not one dated ahead of our clock, which is as
      // far from "now" and may be a delivery signed to be replayed later: refused alike. (The
      // package verified one header, a string: it reads no other.)
      if (signedAt(String(signature)) - Math.floor(Date.now() / 1000) > TOLERANCE_SECONDS) {
        log.warn({ eventId: event.id }, 'Stripe webhook refused: signed in the future');
        throw new HttpError(400, 'The Stripe signature was refused: Timestamp outside the tolerance zone');
      }
      if (event.type === 'account.updated') return accountUpdated(event, payouts, log);
      const message = donationMessage(event, signer);
      if (typeof message === 'string') {
        if (message !== '') log.warn({ eventId: event.id, type: event.type }, `Stripe webhook ignored: ${message}`);
        return { outcome: 'ignored' };
      }
      // Each report is dropped once by its own stream, whatever event says so, however often.
      if (message.type === 'report.dropped') return donations.dropReport(message);
      try {
        return await donations.receiveProcessorMessage(`stripe:${event.id}`, message, event.type);
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

/** A charity's connected account changed: whether it takes charges and is paid out. */
async function accountUpdated(
  event: Stripe.AccountUpdatedEvent,
  payouts: Pick<PayoutUseCases, 'described'>,
  log: Logger,
): Promise<StripeWebhookAnswer> {
  const account = event.data.object;
  const charityId = account.metadata?.charityId;
  if (!ours(charityId) || !Number.isInteger(event.created)) {
    log.warn(
      { eventId: event.id, accountId: account.id },
      'Stripe webhook ignored: an account the product did not open',
    );
    return { outcome: 'ignored' };
  }
  const changed = await payouts.described({
    charityId,
    accountId: account.id,
    live: event.livemode,
    chargesEnabled: account.charges_enabled === true,
    payoutsEnabled: account.payouts_enabled === true,
    detailsSubmitted: account.details_submitted === true,
    at: isoOf(event.created),
  });
  return { outcome: changed ? 'recorded' : 'unchanged' };
}

/** A report whose payment will not come, by the product's own Checkout Session. */
interface ReportDropped {
  type: 'report.dropped';
  reportId: string;
  fundraiserId: string;
  reason: (typeof reportDropReasons)[number];
}

/**
 * What the event says about a donation, or why it says nothing ('' for the types that never move
 * money, which are not worth a log line).
 */
function donationMessage(event: Stripe.Event, signer: CheckoutSigner): ProcessorMessage | ReportDropped | string {
  // Connect sends the events of the charities' own accounts to the platform's endpoint too.
  if (event.account) return `an event of the connected account ${event.account}`;
  if (!Number.isInteger(event.created)) return 'an event without its date';
  const eventAt = isoOf(event.created);
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded': {
      const session = event.data.object;
      // A bank debit completes unpaid, and its money arrives with async_payment_succeeded.
      if (session.payment_status !== 'paid') return '';
      const paymentIntent = idOf(session.payment_intent);
      const ownSession = ourCheckout(session, signer);
      // A Payment Link or another integration may name one of our fundraisers in its metadata.
      if (!ownSession || !paymentIntent) return 'a Checkout Session the product did not create';
      if (session.currency !== 'usd' || session.amount_total === null) return `a payment in ${session.currency}`;
      return {
        type: 'donation.succeeded',
        donationId: paymentIntent,
        fundraiserId: ownSession.fundraiserId,
        charityId: ownSession.charityId,
        amount: (session.amount_total / 100).toFixed(2),
        reportId: ownSession.reportId,
        live: event.livemode,
        paidAt: eventAt,
        // Checkout asks every donor for it: the customer is not known beforehand.
        receiptTo: session.customer_details?.email ?? null,
      };
    }
    case 'checkout.session.async_payment_failed':
    case 'checkout.session.expired': {
      // The donor's bank debit failed, or the session was left unpaid for its 24 h.
      const ownSession = ourCheckout(event.data.object, signer);
      if (!ownSession) return 'a Checkout Session the product did not create';
      return {
        type: 'report.dropped',
        reportId: ownSession.reportId,
        fundraiserId: ownSession.fundraiserId,
        reason: event.type === 'checkout.session.expired' ? 'checkout_expired' : 'payment_failed',
      };
    }
    case 'charge.succeeded':
    case 'charge.updated':
      return chargeSettled(event.data.object);
    case 'charge.refunded': {
      // Its running total is enough for an endpoint without the refund events; named refunds,
      // whose failures come back, take over once they arrive.
      const charge = event.data.object;
      const paymentIntent = idOf(charge.payment_intent);
      if (!paymentIntent) return 'a refund of a charge without a PaymentIntent';
      return {
        type: 'donation.moved',
        donationId: paymentIntent,
        movement: { kind: 'refunded-total', refundedCents: charge.amount_refunded },
        movedAt: eventAt,
      };
    }
    case 'refund.created':
    case 'refund.updated':
    case 'refund.failed':
    case 'charge.refund.updated': {
      const refund = event.data.object;
      const paymentIntent = idOf(refund.payment_intent ?? null);
      if (!paymentIntent) return 'a refund without a PaymentIntent';
      if (refund.amount <= 0) return 'a refund of nothing';
      const status = refundStatus(refund.status);
      if (!status) return `a refund in the unknown status ${refund.status}`;
      return {
        type: 'donation.moved',
        donationId: paymentIntent,
        movement: { kind: 'refund', refundId: refund.id, amountCents: refund.amount, status },
        // Stripe takes a refund off the balance when it is made, and gives it back when it fails.
        movedAt:
          status === 'failed' || status === 'canceled' || !Number.isInteger(refund.created)
            ? eventAt
            : isoOf(refund.created),
      };
    }
    case 'charge.dispute.created':
    case 'charge.dispute.updated':
    case 'charge.dispute.funds_withdrawn':
    case 'charge.dispute.funds_reinstated':
    case 'charge.dispute.closed': {
      const dispute = event.data.object;
      const paymentIntent = idOf(dispute.payment_intent);
      if (!paymentIntent) return 'a dispute of a charge without a PaymentIntent';
      if (dispute.amount <= 0) return 'a dispute of nothing';
      return {
        type: 'donation.moved',
        donationId: paymentIntent,
        movement: {
          kind: 'dispute',
          disputeId: dispute.id,
          amountCents: dispute.amount,
          withdrawn:
            event.type === 'charge.dispute.funds_withdrawn' || event.type === 'charge.dispute.funds_reinstated',
          won: event.type === 'charge.dispute.funds_reinstated' || dispute.status === 'won',
        },
        movedAt: eventAt,
        fees: disputeFees(dispute),
      };
    }
    default:
      return '';
  }
}

/**
 * A charge whose balance transaction is made: its fees and transfer are Stripe's to tell (the
 * event names them). Stripe captures asynchronously, so `charge.succeeded` may come before it,
 * and a `charge.updated` says when it is there.
 */
function chargeSettled(charge: Stripe.Charge): ProcessorMessage | string {
  const paymentIntent = idOf(charge.payment_intent);
  if (!paymentIntent) return 'a charge without a PaymentIntent';
  if (charge.balance_transaction === null || charge.status !== 'succeeded') return '';
  return { type: 'donation.settled', donationId: paymentIntent, chargeId: charge.id };
}

/**
 * The fee of each balance transaction the dispute made (Stripe's dispute fee; negative when given
 * back). Stripe lists them on every dispute; a dispute told without them books no fee, and one
 * without a whole fee or date is passed over, rather than failing the delivery for ever.
 */
const disputeFees = (dispute: Stripe.Dispute) =>
  (dispute.balance_transactions ?? [])
    .filter((balance) => Number.isInteger(balance.fee) && Number.isInteger(balance.created))
    .map((balance) => ({
      movement: {
        kind: 'fee' as const,
        balanceTransactionId: balance.id,
        to: 'processor' as const,
        amountCents: balance.fee,
      },
      movedAt: isoOf(balance.created),
    }));

/** The session's fundraiser, report and charity, when the product created and signed it. */
function ourCheckout(
  session: Stripe.Checkout.Session,
  signer: CheckoutSigner,
): { fundraiserId: string; reportId: string; charityId: string } | null {
  const { fundraiserId, reportId, charityId, signature } = session.metadata ?? {};
  if (!ours(fundraiserId) || !ours(reportId) || !charityId || !signature || session.amount_total === null) return null;
  const signed = { fundraiserId, reportId, charityId, amountCents: session.amount_total };
  return signer.verify(signed, signature) ? { fundraiserId, reportId, charityId } : null;
}

const REFUND_STATUSES: readonly string[] = refundStatuses;
const refundStatus = (status: string | null): (typeof refundStatuses)[number] | null =>
  status !== null && REFUND_STATUSES.includes(status) ? (status as (typeof refundStatuses)[number]) : null;

/** Stripe's dates are Unix seconds. */
const isoOf = (seconds: number): string => new Date(seconds * 1000).toISOString();

/** Whether a metadata value is an id of ours, as the checkout wrote it. */
const ours = (value: string | undefined): value is string => resourceId.safeParse(value).success;

/** An id Stripe may send expanded into its object. */
const idOf = (value: string | { id: string } | null): string | null =>
  typeof value === 'string' ? value : (value?.id ?? null);

/** The `t=` of a Stripe-Signature, read as the `stripe` package reads it (the last one counts). */
function signedAt(signature: string): number {
  let timestamp = -1;
  for (const [key, value] of signature.split(',').map((item) => item.split('='))) {
    if (key === 't') timestamp = Number.parseInt(value ?? '', 10);
  }
  return timestamp;
}

/** The package's messages go on with advice for developers over several lines. */
const firstLine = (text: string): string => text.split('\n')[0]!.trim();
