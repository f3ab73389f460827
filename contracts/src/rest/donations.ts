import { z } from 'zod';
import { defineRoutes, invalidInput as invalid, notFound } from '../route';
import { errorAnswer } from './errors';
import { MAX_IDEMPOTENCY_KEY } from './fundraisers';
import { resourceId } from './ids';

/** A donation processor's id of a donation: what its dashboards and refunds name it by. */
export const processorDonationId = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[A-Za-z0-9_.:-]+$/, 'must be letters, digits, "_", ".", ":" or "-"');

export const donationWebhookTypes = ['donation.succeeded', 'donation.refunded'] as const;
export type DonationWebhookType = (typeof donationWebhookTypes)[number];

/** The largest donation counted, in dollars, as for the widget's reports. */
const MAX_DOLLARS = 1_000_000;

/**
 * What the donation processor signs and posts to /api/webhooks/donations (Standard Webhooks).
 * `amount` is in dollars; refunds take back the whole donation.
 */
export const donationWebhookPayload = z
  .object({
    type: z.enum(donationWebhookTypes, { error: 'type must be donation.succeeded or donation.refunded' }),
    data: z.object({
      donationId: processorDonationId,
      fundraiserId: resourceId,
      amount: z
        .number({ error: 'amount must be a positive number' })
        .positive('amount must be a positive number')
        .max(MAX_DOLLARS, `amount must be at most ${MAX_DOLLARS}`),
      currency: z.literal('USD', { error: 'currency must be USD' }),
      /** The id POST /api/fundraisers/{id}/donate answered, when the processor was given it. */
      reportId: resourceId.optional(),
      /**
       * True for real money. False or absent: the processor's test money, reported beside the
       * money raised and never added to it, so only a processor that says so moves the figures.
       * A refund follows its donation whatever it says.
       */
      live: z.boolean({ error: 'live must be true or false' }).default(false),
    }),
  })
  .meta({ id: 'DonationWebhook' });
export type DonationWebhookPayload = z.infer<typeof donationWebhookPayload>;

/**
 * The Standard Webhooks headers. Optional in the document: a request without them is answered
 * 401 like any other that is not signed, not 400.
 */
export const donationWebhookHeaders = z.object({
  'webhook-id': z.string().optional().describe('The message id; a message whose id was seen before changes nothing'),
  'webhook-timestamp': z
    .string()
    .optional()
    .describe('Unix seconds when the message was sent; refused beyond 5 minutes from the server clock'),
  'webhook-signature': z
    .string()
    .optional()
    .describe('`v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, several separated by spaces'),
});

export const donationWebhookAnswer = z
  .object({
    /**
     * `unchanged`: a repeated message or donation, which counts once. `recorded`: a refund or
     * dispute kept for a payment that has not arrived yet (or a step that moves no money);
     * `restored`: money taken back counts again (a failed refund, a won dispute).
     */
    outcome: z.enum(['confirmed', 'refunded', 'restored', 'recorded', 'unchanged']),
  })
  .meta({ id: 'DonationWebhookAnswer' });
export type DonationWebhookAnswer = z.infer<typeof donationWebhookAnswer>;

/** The Stripe events that move money; Stripe's endpoint is set up to send these (docs/operations.md). */
export const stripeWebhookEventTypes = [
  'checkout.session.completed',
  'checkout.session.async_payment_succeeded',
  'checkout.session.async_payment_failed',
  'checkout.session.expired',
  'charge.refunded',
  'charge.dispute.funds_withdrawn',
  // A settled charge's fees and transfer, asked of Stripe's API.
  'charge.succeeded',
  'charge.updated',
] as const;

/** The largest Stripe delivery read, 1 MiB: what nginx lets through by default, too (client_max_body_size). */
export const STRIPE_WEBHOOK_MAX_BYTES = 1024 * 1024;

/**
 * A Stripe event as Stripe posts it, for the document only: the route reads the bytes, checks
 * their signature with the `stripe` package, and reads the fields of the types it handles.
 */
export const stripeWebhookEvent = z
  .object({
    id: z.string().describe('`evt_…`: an event seen before changes nothing'),
    object: z.literal('event'),
    type: z
      .string()
      .describe(`Handled: ${stripeWebhookEventTypes.join(', ')}; any other answers 200 and changes nothing`),
    livemode: z.boolean().describe('false: test money, reported beside the money raised and never added to it'),
    data: z.object({ object: z.record(z.string(), z.unknown()) }),
  })
  .meta({ id: 'StripeWebhookEvent' });

export const stripeWebhookHeaders = z.object({
  'stripe-signature': z
    .string()
    .optional()
    .describe(
      '`t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`; refused beyond 300 seconds from the server clock',
    ),
});

export const stripeWebhookAnswer = z
  .object({
    /**
     * As the donation webhook's; `dropped`: the report of a session that expired unpaid or whose
     * payment failed no longer awaits confirmation; `ignored`: a type that moves no money, or one
     * that is not ours (a Checkout Session the product did not create, a connected account's
     * event: logged).
     */
    outcome: z.enum(['confirmed', 'refunded', 'restored', 'recorded', 'dropped', 'unchanged', 'ignored']),
  })
  .meta({ id: 'StripeWebhookAnswer' });
export type StripeWebhookAnswer = z.infer<typeof stripeWebhookAnswer>;

/** What the demo widget asks the demo processor to "charge" (it charges nothing). */
export const demoDonationRequest = z.object({
  fundraiserId: resourceId,
  amount: z
    .number({ error: 'amount must be a number greater than 0' })
    .min(0.005, 'amount must be a number greater than 0')
    .max(MAX_DOLLARS, `amount must be at most ${MAX_DOLLARS}`),
  /**
   * The widget's name for this donation, which it gives the page too (the page sends it as the
   * report's Idempotency-Key): the processor's webhook then names that report.
   */
  reference: z.string().max(MAX_IDEMPOTENCY_KEY).trim().min(1).optional(),
});
export type DemoDonationRequest = z.infer<typeof demoDonationRequest>;

export const demoDonation = z
  .object({
    /** The demo processor's id of the donation (`demo_…`), as its webhook names it. */
    donationId: z.string(),
    fundraiserId: z.string(),
    amount: z.number(),
    currency: z.literal('USD'),
    /** The report its webhook names, when the widget gave a reference. */
    reportId: z.string().nullable(),
  })
  .meta({ id: 'DemoDonation' });
export type DemoDonation = z.infer<typeof demoDonation>;

/** Donations as the processor confirms them, and the built-in demo processor. */
export const donationRoutes = defineRoutes({
  receiveDonationWebhook: {
    method: 'post',
    path: '/api/webhooks/donations',
    summary:
      "The donation processor's signed webhook (Standard Webhooks): a donation succeeded or was refunded. " +
      'Only confirmed donations count as raised.',
    auth: 'none',
    // The processor sends no bearer token: its signature is the credential.
    readsToken: false,
    rawBody: true,
    headers: donationWebhookHeaders,
    body: donationWebhookPayload,
    answers: {
      200: { description: 'Handled, or already handled (a repeat changes nothing)', schema: donationWebhookAnswer },
      400: invalid,
      401: {
        description: 'Missing, wrong or stale signature (beyond 5 minutes): nothing recorded',
        schema: errorAnswer,
      },
      404: {
        description:
          'Unknown fundraiser, or a refund of an unknown donation; the processor retries. Or the webhook is off ' +
          'here: Stripe is configured, or NODE_ENV=production without DONATION_WEBHOOK_SECRET',
        schema: errorAnswer,
      },
    },
  },
  receiveStripeWebhook: {
    method: 'post',
    path: '/api/webhooks/stripe',
    summary:
      "Stripe's signed webhook: a Checkout payment succeeded, a charge was refunded (partly or wholly) or its funds " +
      'were withdrawn for a dispute. Only confirmed donations count as raised.',
    auth: 'none',
    // Stripe sends no bearer token: its signature is the credential.
    readsToken: false,
    rawBody: true,
    // Stripe's events carry whole objects, a Checkout Session's line items and metadata among them,
    // and Stripe retries a refused delivery for three days: room for any of them.
    maxBodyBytes: STRIPE_WEBHOOK_MAX_BYTES,
    headers: stripeWebhookHeaders,
    body: stripeWebhookEvent,
    answers: {
      200: {
        description:
          'Handled, already handled, or nothing to do (another type, or a fundraiser or payment not ours: logged, ' +
          'as no retry could change it)',
        schema: stripeWebhookAnswer,
      },
      400: {
        description:
          'Missing or wrong signature, one dated more than 300 seconds from the server clock either way, or a body ' +
          'that is not the one signed: nothing recorded',
        schema: errorAnswer,
      },
      502: {
        description:
          "Stripe's API refused or failed to describe a settled charge's fees: nothing recorded, Stripe retries",
        schema: errorAnswer,
      },
      503: {
        description: 'Stripe is not configured (STRIPE_WEBHOOK_SECRET and the others unset)',
        schema: errorAnswer,
      },
      504: {
        description: "Stripe's API did not answer in time about a settled charge: nothing recorded, Stripe retries",
        schema: errorAnswer,
      },
    },
  },
  createDemoDonation: {
    method: 'post',
    path: '/api/demo-processor/donations',
    summary:
      'The demo processor behind the demo widget: charges nothing, and confirms the donation with a signed ' +
      'webhook to this product, stored first and retried until delivered',
    auth: 'none',
    body: demoDonationRequest,
    // A newcomer tries a few; nobody fills the test figures by the thousand.
    perClient: { requests: 20, seconds: 3600 },
    answers: {
      202: { description: 'Taken; its webhook is queued', schema: demoDonation },
      400: invalid,
      404: notFound,
      503: { description: 'The demo processor is off (DEMO_PROCESSOR=false)', schema: errorAnswer },
    },
  },
});
