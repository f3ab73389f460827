import { z } from 'zod';
import { CHECKOUT_DOLLARS_AS_SENT, DOLLARS_AS_SENT } from './text-patterns';
import { defineRoutes, invalidInput as invalid, notFound, unauthenticated } from '../route';
import { errorAnswer } from './errors';
import { idParams } from './ids';

export const fundraiser = z
  .object({
    id: z.string(),
    /** Null while a fundraiser made for a waitlist entry waits for its person to claim it. */
    userId: z.string().nullable(),
    charityId: z.string(),
    shirtId: z.string(),
    name: z.string(),
  })
  .meta({ id: 'Fundraiser' });
export type Fundraiser = z.infer<typeof fundraiser>;

export const createFundraiserRequest = z.object({
  charityId: z.string().max(128).trim().min(1),
  shirtId: z.string().max(128).trim().min(1),
  name: z.string().max(200).trim().min(1).optional(),
});
export type CreateFundraiserRequest = z.infer<typeof createFundraiserRequest>;

/** The most a goal may be, in dollars: the most a single donation may be too. */
export const MAX_GOAL = 1_000_000;

/**
 * What GET and PATCH answer: the fundraiser, its goal and the confirmed money towards it. Anyone
 * may ask, so it does not name the owner: `owned` says whether it is the caller's.
 */
export const fundraiserDetails = fundraiser
  .omit({ userId: true })
  .extend({
    /**
     * Whether the caller's token is its owner's: false without a token, for an anonymous session,
     * for anyone else, and while nobody has claimed it.
     */
    owned: z.boolean(),
    /** Dollars; null when the owner set none. */
    goal: z.number().nullable(),
    /** Dollars the processor confirmed, net of refunds: what the QR page's progress bar shows. */
    amountRaised: z.number(),
  })
  .meta({ id: 'FundraiserDetails' });
export type FundraiserDetails = z.infer<typeof fundraiserDetails>;

/** Only the fields sent change; `goal: null` removes the goal. */
export const updateFundraiserRequest = z.object({
  name: z.string().max(200).trim().min(1).optional(),
  charityId: z.string().max(128).trim().min(1).optional(),
  goal: z
    .number({ error: 'goal must be a number of dollars, or null' })
    .min(0, { error: 'goal must not be negative' })
    // Formatted only when a goal fails: a browser's first number formatting loads ICU's data, about
    // 10 ms (40 on a phone) in the task that loads these schemas, on the QR landing too.
    .max(MAX_GOAL, { error: () => `goal must be at most $${MAX_GOAL.toLocaleString('en-US')}` })
    .nullable()
    .optional(),
});
export type UpdateFundraiserRequest = z.infer<typeof updateFundraiserRequest>;

export const scanAccepted = z.object({ scanId: z.string() }).meta({ id: 'ScanAccepted' });
export type ScanAccepted = z.infer<typeof scanAccepted>;

/**
 * The donation widget may send the amount as a number or as a string, possibly wrapped in
 * quotes; the decider parses it (spec section 5), so the contract only bounds its shape.
 */
export const donateRequest = z.object({
  amount: z.union(
    [
      // The decider's rules, documented here: from half a cent (which rounds to one) to $1,000,000.
      z.number().meta({ minimum: 0.005, exclusiveMaximum: 1_000_000.005 }),
      z.string().max(64).meta({ pattern: DOLLARS_AS_SENT }),
    ],
    { error: 'amount must be a number greater than 0' },
  ),
  source: z.string().max(64).trim().min(1).optional(),
});
export type DonateRequest = z.infer<typeof donateRequest>;

export const MAX_IDEMPOTENCY_KEY = 200;

export const createFundraiserHeaders = z.object({
  'idempotency-key': z
    .string()
    .max(MAX_IDEMPOTENCY_KEY)
    .optional()
    .describe('A retry with the same key and body creates the fundraiser once, and answers it again'),
});

export const donateHeaders = z.object({
  'idempotency-key': z
    .string()
    .max(MAX_IDEMPOTENCY_KEY)
    .optional()
    .describe('A retry with the same key records the donation once, and answers it again'),
});

/** What Stripe charges at least and at most in USD, in dollars: a checkout outside asks Stripe nothing. */
export const CHECKOUT_MIN_DOLLARS = 0.5;
export const CHECKOUT_MAX_DOLLARS = 999_999.99;

/**
 * A donation through Stripe's embedded Checkout: the amount read by `donate`'s rules, in dollars,
 * within what Stripe charges in USD.
 */
export const checkoutRequest = z.object({
  amount: z.union(
    [
      // Rounded to the cent first, as a report's amount is: 0.495 is 50 cents, 999,999.995 one cent too many.
      z.number().meta({ minimum: 0.495, exclusiveMaximum: 999_999.995 }),
      z.string().max(64).meta({ pattern: CHECKOUT_DOLLARS_AS_SENT }),
    ],
    { error: 'amount must be a number greater than 0' },
  ),
});
export type CheckoutRequest = z.infer<typeof checkoutRequest>;

export const checkoutHeaders = z.object({
  'idempotency-key': z
    .string()
    .max(MAX_IDEMPOTENCY_KEY)
    .optional()
    .describe(
      "Passed on to Stripe, so a retry gets the same session; the session names the report this key gives, so the page's " +
        'report of the donation afterwards (POST /donate with the same key) is the one the webhook settles',
    ),
});

export const checkoutSession = z
  .object({
    /** The Checkout Session's client secret, which Stripe.js's `initEmbeddedCheckout` mounts. */
    clientSecret: z.string(),
  })
  .meta({ id: 'CheckoutSession' });
export type CheckoutSession = z.infer<typeof checkoutSession>;

export const donation = z
  .object({
    id: z.string(),
    fundraiserId: z.string(),
    amount: z.number(),
    currency: z.literal('USD'),
    awaitingConfirmation: z
      .boolean()
      .describe(
        "Whether the owner's figures count this report as awaiting confirmation: false when the processor's confirmation " +
          'got there first, or when nothing backs the report (while Stripe takes donations, a report without its checkout)',
      ),
  })
  .meta({ id: 'Donation' });
export type Donation = z.infer<typeof donation>;

export const dailyStats = z.object({
  date: z.string(),
  /** Counted scans: once per visitor per 30 minutes, at most 30 per address per hour, no robots. */
  scans: z.number().int(),
  /** Every accepted scan request, counted or not. */
  scanRequests: z.number().int(),
  donations: z.number().int(),
  amountRaised: z.number(),
});
export type DailyStats = z.infer<typeof dailyStats>;

export const charityFigures = z.object({
  charityId: z.string(),
  scans: z.number().int(),
  donations: z.number().int(),
  amountRaised: z.number(),
});
export type CharityFigures = z.infer<typeof charityFigures>;

/** Confirmed live money only: what the processor confirmed, net of refunds; test money beside it. */
export const fundraiserStats = z
  .object({
    /** Counted scans: once per visitor per 30 minutes, at most 30 per address per hour, no robots. */
    scans: z.number().int(),
    /** Every accepted scan request, counted or not. */
    scanRequests: z.number().int(),
    /** Donations the processor confirmed (and did not refund). */
    donations: z.number().int(),
    /** Dollars the processor confirmed, net of refunds. */
    amountRaised: z.number(),
    /** Dollars the page reported that no processor confirmed yet. */
    amountReported: z.number(),
    /** Test donations a processor confirmed (demo processor, test keys): never part of the live figures. */
    testDonations: z.number().int(),
    /** Their dollars, net of refunds. */
    testAmountRaised: z.number(),
    /**
     * The same confirmed figures split by the charity the fundraiser supported when each scan and
     * donation counted, in the order the fundraiser supported them (the current one last).
     */
    byCharity: z.array(charityFigures),
    /** Confirmed figures per UTC day. */
    daily: z.array(dailyStats),
  })
  .meta({ id: 'FundraiserStats' });
export type FundraiserStats = z.infer<typeof fundraiserStats>;

/** `?download=1` (or `true`) answers the QR code as an attachment with a file name. */
export const qrCodeQuery = z.object({ download: z.string().max(8).optional() });

const forbidden = { description: 'Not allowed', schema: errorAnswer };

/** Fundraisers and their stats. */
export const fundraiserRoutes = defineRoutes({
  createFundraiser: {
    method: 'post',
    path: '/api/fundraisers',
    summary: 'Create a fundraiser for a shirt and a charity',
    auth: 'user',
    headers: createFundraiserHeaders,
    body: createFundraiserRequest,
    answers: {
      201: { description: 'The fundraiser', schema: fundraiser },
      200: { description: 'Already created under this Idempotency-Key', schema: fundraiser },
      400: invalid,
      401: unauthenticated,
      403: forbidden,
      404: notFound,
      409: { description: 'Idempotency-Key reused with another body', schema: errorAnswer },
    },
  },
  getFundraiser: {
    method: 'get',
    path: '/api/fundraisers/{id}',
    summary: 'One fundraiser',
    auth: 'none',
    params: idParams,
    answers: {
      200: { description: 'The fundraiser, its goal and the money raised', schema: fundraiserDetails },
      404: notFound,
    },
  },
  updateFundraiser: {
    method: 'patch',
    path: '/api/fundraisers/{id}',
    summary: "Change a fundraiser's name, charity or goal (owner only); its scans and money stay",
    auth: 'any',
    params: idParams,
    body: updateFundraiserRequest,
    answers: {
      200: { description: 'The fundraiser as changed', schema: fundraiserDetails },
      400: invalid,
      401: unauthenticated,
      403: forbidden,
      404: { description: 'Unknown fundraiser, or no approved charity with that id', schema: errorAnswer },
    },
  },
  getFundraiserStats: {
    method: 'get',
    path: '/api/fundraisers/{id}/stats',
    summary: "A fundraiser's figures (owner only)",
    auth: 'any',
    params: idParams,
    answers: {
      200: { description: 'Figures and the per-day series', schema: fundraiserStats },
      401: unauthenticated,
      403: forbidden,
      404: notFound,
    },
  },
  getAdminFundraiserStats: {
    method: 'get',
    path: '/api/admin/fundraisers/{id}/stats',
    summary: "A fundraiser's figures, whoever owns it: for an operator answering its owner's question",
    auth: 'admin',
    params: idParams,
    answers: {
      200: { description: 'Figures and the per-day series, as its owner sees them', schema: fundraiserStats },
      404: notFound,
    },
  },
});

/** A fundraiser's QR code, as an image. */
export const fundraiserQrRoutes = defineRoutes({
  getQrSvg: {
    method: 'get',
    path: '/api/fundraisers/{id}/qr.svg',
    summary:
      "The QR code for the shirt: its short link PUBLIC_BASE_URL/q/<code>, which opens the fundraiser's page as a scan (SVG)",
    auth: 'none',
    params: idParams,
    query: qrCodeQuery,
    answers: { 200: { description: 'The QR code', contentType: 'image/svg+xml' }, 400: invalid, 404: notFound },
  },
  getQrPng: {
    method: 'get',
    path: '/api/fundraisers/{id}/qr.png',
    summary:
      "The QR code for the shirt: its short link PUBLIC_BASE_URL/q/<code>, which opens the fundraiser's page as a scan (PNG)",
    auth: 'none',
    params: idParams,
    query: qrCodeQuery,
    answers: { 200: { description: 'The QR code', contentType: 'image/png' }, 400: invalid, 404: notFound },
  },
});

/** The donation widget's report of a donation, which the donations feature records. */
export const donateRoutes = defineRoutes({
  donate: {
    method: 'post',
    path: '/api/fundraisers/{id}/donate',
    summary: "Report a donation the widget completed: it awaits confirmation until the processor's webhook confirms it",
    auth: 'none',
    params: idParams,
    headers: donateHeaders,
    body: donateRequest,
    maxBodyBytes: 1_024,
    // A donor reports each donation once; a crowd at an event may share an address.
    perClient: { requests: 60, seconds: 60 },
    answers: {
      201: { description: 'Reported; `id` is the report id a processor may name in its webhook', schema: donation },
      200: { description: 'Already reported under this Idempotency-Key', schema: donation },
      400: invalid,
      404: notFound,
      409: { description: 'Idempotency-Key reused with another amount', schema: errorAnswer },
    },
  },
  createCheckout: {
    method: 'post',
    path: '/api/fundraisers/{id}/checkout',
    summary:
      "Start a donation with Stripe's embedded Checkout (USD, submit type donate): answers the Checkout Session's " +
      "client secret; the money counts once Stripe's signed webhook confirms it",
    auth: 'none',
    params: idParams,
    headers: checkoutHeaders,
    body: checkoutRequest,
    // Each one is a call to Stripe's API, whose rate limit the whole site shares, and a Checkout
    // Session kept for a day: a script pays for each, and one address gets no more than a donor needs.
    challenge: true,
    maxBodyBytes: 1_024,
    perClient: { requests: 30, seconds: 60 },
    answers: {
      200: {
        description: 'The Checkout Session, the same one again for a retry with its key',
        schema: checkoutSession,
      },
      400: {
        description: 'Invalid input, an amount Stripe does not charge, or Stripe refused the request (its message)',
        schema: errorAnswer,
      },
      404: { description: 'Unknown fundraiser, or one nobody has claimed yet', schema: errorAnswer },
      409: {
        description: "With live keys, the fundraiser's charity has no Stripe account that takes charges yet",
        schema: errorAnswer,
      },
      422: {
        description:
          'Stripe refused a well-formed request (a card declined, the Idempotency-Key used with another amount): its message',
        schema: errorAnswer,
      },
      502: {
        description: "Stripe failed, limited the site's requests or refused its keys: nothing was charged, try again",
        schema: errorAnswer,
      },
      503: { description: 'Stripe is not configured (STRIPE_SECRET_KEY and the others unset)', schema: errorAnswer },
      504: { description: 'Stripe did not answer in time (at most about 20 s): try again', schema: errorAnswer },
    },
  },
});

/** A scan of a fundraiser's shirt: the busiest route, served ahead of the others. */
export const scanRoutes = defineRoutes({
  recordScan: {
    method: 'post',
    path: '/api/fundraisers/{id}/scan',
    summary:
      "Record a QR scan: sent as JSON (Content-Type: application/json), or by the site's own pages (Sec-Fetch-Site same-origin or same-site)",
    auth: 'none',
    readsToken: false,
    params: idParams,
    // Room for a crowd behind one address (an office, an event's network), far below a flood.
    perClient: { requests: 600, seconds: 60 },
    answers: {
      202: { description: 'Accepted and durably stored', schema: scanAccepted },
      403: {
        description:
          "Sent by another site's page without JSON (a form, an image, a no-cors fetch): not stored, not counted",
        schema: errorAnswer,
      },
      404: notFound,
      503: { description: 'Ingestion is overloaded or down; retry later', schema: errorAnswer },
    },
  },
});

/** A fundraiser's stats as they change. */
export const fundraiserStreamRoutes = defineRoutes({
  streamFundraiserStats: {
    method: 'get',
    path: '/api/fundraisers/{id}/live',
    summary: "A fundraiser's figures as server-sent events (owner only)",
    auth: 'any',
    params: idParams,
    answers: {
      200: {
        description: '`event: stats` with the /stats JSON now and on every scan or donation; `: heartbeat` every 15 s',
        contentType: 'text/event-stream',
      },
      401: unauthenticated,
      403: { description: 'Not the owner', schema: errorAnswer },
      404: notFound,
      429: {
        description: 'The account has 5 live streams open already (other tabs or devices); closing one frees its place',
        schema: errorAnswer,
      },
    },
  },
});
