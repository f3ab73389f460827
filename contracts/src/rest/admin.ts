import { z } from 'zod';
import { dailyStats, fundraiser } from './fundraisers';
import { resourceId, idParams } from './ids';
import { waitlistStats } from './waitlist';
import { adminAuditPage } from './admin-audit';
import { adminReplayQuery } from './admin-replay';
import { charity, charityStatus, charityWithStatus } from './charities';
import { HTTPS_ADDRESS, LOGO_ADDRESS, US_EIN } from './text-patterns';
import { shirt } from './shirts';
import { defineRoutes, invalidInput as invalid, notFound, unauthenticated } from '../route';
import { errorAnswer } from './errors';

/*
 * The admin API (/api/admin/*): operators manage the catalogue and watch the system. Request
 * schemas carry messages meant to be shown next to a form's fields.
 */

/** A 400 from an admin form: `fields` maps a field's path (`name`, `images.0.url`) to its problem. */
/** `fields` is there when the problem is a field's (not for a change that changes nothing). */
export const fieldErrorsAnswer = z
  .object({ error: z.string(), fields: z.record(z.string(), z.string()).optional() })
  .meta({ id: 'FieldErrors' });
export type FieldErrorsAnswer = z.infer<typeof fieldErrorsAnswer>;

const text = (label: string, max: number) =>
  z
    .string({ error: (issue) => (issue.input === undefined ? `${label} is required` : `${label} must be text`) })
    .max(max, `${label} must be at most ${max} characters`)
    .trim()
    .min(1, `${label} is required`);

/** Optional: an empty form input or query parameter (a cleared field or filter) means "not given". */
const unsetWhenBlank = <Schema extends z.ZodType>(schema: Schema) =>
  z.preprocess((value) => (value === '' || value === null ? undefined : value), schema.optional());

/** Links the shop renders: web addresses only (never `javascript:`), or paths on this site (not `//host`). */
const webAddress = (label: string) =>
  text(label, 2048).regex(/^(https?:\/\/\S+|\/(?!\/)\S*)$/, `${label} must start with https://, http:// or /`);

/**
 * The same link rules as a member's charity (POST /api/charity), with a form's messages, and what
 * only admins give: the legal name and tax id of donors' receipts.
 */
const charityFields = z.object({
  name: text('Name', 200),
  mission: text('Mission', 2000),
  website_url: text('Website', 2048).regex(
    HTTPS_ADDRESS,
    'Website must be an https:// address, like https://example.org',
  ),
  logo_url: unsetWhenBlank(
    text('Logo', 2048).regex(LOGO_ADDRESS, 'Logo must be an https:// address or a path on this site starting with /'),
  ),
  legalName: unsetWhenBlank(text('Legal name', 200)),
  // The shop takes USD: its charities are US ones, whose donors' receipts name an EIN.
  taxId: unsetWhenBlank(
    text('Tax id', 20).regex(US_EIN, 'Tax id must be a US EIN: 2 digits, a dash and 7 digits, like 12-3456789'),
  ),
});

const atLeastOneField = (fields: object) => Object.values(fields).some((value) => value !== undefined);
const NOTHING_TO_CHANGE = 'Give at least one field to change';

export const adminCreateCharityRequest = charityFields;
export type AdminCreateCharityRequest = z.infer<typeof adminCreateCharityRequest>;
/** Only the fields given change; the others keep their values. */
export const adminUpdateCharityRequest = charityFields
  .partial()
  .refine(atLeastOneField, NOTHING_TO_CHANGE)
  .meta({ minProperties: 1 });
export type AdminUpdateCharityRequest = z.infer<typeof adminUpdateCharityRequest>;

/** What only admins see of a charity: what its donors' receipts name, which the shop never shows. */
const receiptFields = {
  /** The name it is registered under; absent: receipts give its name. */
  legalName: z.string().optional(),
  /** Its US EIN; absent: receipts give none. */
  taxId: z.string().optional(),
};

/** A charity as an admin's create or change answers it. */
export const adminCharityDetails = charity.extend(receiptFields).meta({ id: 'AdminCharityDetails' });
export type AdminCharityDetails = z.infer<typeof adminCharityDetails>;

// Charity review

export const adminCharitiesQuery = z.object({
  /** Which charities: those waiting for review (the default), those in the shop, or those turned down. */
  status: charityStatus.default('pending'),
});

/** A charity as admins review it: who submitted it, and when. */
export const adminCharity = charityWithStatus
  .extend({
    ...receiptFields,
    /** The member's (or admin's) user id; null for the seeded catalogue. */
    createdBy: z.string().nullable(),
    /** Null only in Redis read models projected before reviews existed (until rebuilt). */
    createdAt: z.string().nullable(),
  })
  .meta({ id: 'AdminCharity' });
export type AdminCharity = z.infer<typeof adminCharity>;

export const adminCharityList = z
  .object({
    /** Oldest first: the review queue in the order members submitted. */
    charities: z.array(adminCharity),
  })
  .meta({ id: 'AdminCharities' });
export type AdminCharityList = z.infer<typeof adminCharityList>;

export const adminRejectCharityRequest = z.object({
  /** Kept with the charity; its submitter sees it. */
  reason: text('Reason', 500),
});
export type AdminRejectCharityRequest = z.infer<typeof adminRejectCharityRequest>;

const imageInput = z.object({
  id: text('Image id', 128),
  url: webAddress('Image address'),
  alt: z
    .string({ error: 'Image description must be text' })
    .max(500, 'Image description must be at most 500 characters')
    .trim(),
  isMain: z.boolean({ error: 'Main image must be true or false' }),
});

const shirtFields = z.object({
  name: text('Name', 200),
  description: z
    .string({ error: (issue) => (issue.input === undefined ? 'Description is required' : 'Description must be text') })
    .max(5000, 'Description must be at most 5000 characters')
    .trim(),
  /** Dollars, as the shop shows it. */
  price: z
    .number({ error: 'Price must be a number' })
    .nonnegative('Price must not be negative')
    .max(100_000, 'Price must be at most 100000')
    .refine((price) => Math.abs(price * 100 - Math.round(price * 100)) < 1e-6, 'Price must be in whole cents'),
  category: unsetWhenBlank(text('Category', 100)),
  sizes: z
    .array(text('Size', 32), { error: 'Sizes must be a list' })
    .min(1, 'Give at least one size')
    .max(20, 'At most 20 sizes')
    .refine((sizes) => new Set(sizes).size === sizes.length, 'Sizes must not repeat'),
  tags: z.array(text('Tag', 50), { error: 'Tags must be a list' }).max(30, 'At most 30 tags').optional(),
  images: z
    .array(imageInput, { error: 'Images must be a list' })
    .min(1, 'Give at least one image')
    .max(20, 'At most 20 images')
    .refine((images) => new Set(images.map((image) => image.id)).size === images.length, 'Image ids must not repeat')
    .refine((images) => images.filter((image) => image.isMain).length <= 1, 'At most one image may be the main image'),
});

export const adminCreateShirtRequest = shirtFields;
export type AdminCreateShirtRequest = z.infer<typeof adminCreateShirtRequest>;
/** Only the fields given change; the others keep their values. */
export const adminUpdateShirtRequest = shirtFields
  .partial()
  .refine(atLeastOneField, NOTHING_TO_CHANGE)
  .meta({ minProperties: 1 });
export type AdminUpdateShirtRequest = z.infer<typeof adminUpdateShirtRequest>;

// Overview

const amount = z.number().meta({ description: 'Dollars' });

export const adminOverviewQuery = z.object({
  top: z.coerce.number().int().min(1).max(100).default(10),
});

export const adminOverview = z
  .object({
    totals: z.object({
      /** Counted scans (see the fundraiser's stats). */
      scans: z.number().int(),
      /** Every accepted scan request, counted or not. */
      scanRequests: z.number().int(),
      /** Live money only, as everywhere; test money is the two figures below. */
      donations: z.number().int(),
      amountRaised: amount,
      /** Test donations a processor confirmed (demo processor, test keys), net of refunds. */
      testDonations: z.number().int(),
      testAmountRaised: amount,
      fundraisers: z.number().int(),
      /** Registered accounts; anonymous sessions are not counted. */
      users: z.number().int(),
    }),
    /** Across all fundraisers, one entry per UTC day with activity, oldest first. */
    daily: z.array(dailyStats),
    topFundraisers: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        userId: z.string(),
        charityId: z.string(),
        scans: z.number().int(),
        donations: z.number().int(),
        amountRaised: amount,
      }),
    ),
    topCharities: z.array(
      z.object({
        id: z.string(),
        name: z.string().nullable(),
        fundraisers: z.number().int(),
        amountRaised: amount,
      }),
    ),
  })
  .meta({ id: 'AdminOverview' });
export type AdminOverview = z.infer<typeof adminOverview>;

// Waitlist

/** The public counts, with the names of the shirts and charities they count. */
export const adminWaitlistStats = waitlistStats
  .extend({
    shirtNames: z.record(z.string(), z.string()),
    charityNames: z.record(z.string(), z.string()),
  })
  .meta({ id: 'AdminWaitlistStats' });
export type AdminWaitlistStats = z.infer<typeof adminWaitlistStats>;

export const adminWaitlistEntriesQuery = z.object({
  /** The `next` of the previous page. */
  after: unsetWhenBlank(z.coerce.number().int().positive()),
  limit: z.coerce.number().int().min(1).max(500).default(50),
});

export const adminWaitlistEntry = z.object({
  id: z.string(),
  /** Null once its person removed the entry, which erased them. */
  name: z.string().nullable(),
  email: z.string().nullable(),
  size: z.string(),
  charityId: z.string(),
  charityName: z.string().nullable(),
  shirtId: z.string(),
  shirtName: z.string().nullable(),
  joinedAt: z.string(),
  /**
   * unconfirmed (its address has not opened the confirmation link yet), waiting, then fulfilled (a
   * fundraiser made and a claim link mailed), then claimed by its person; removed, at any stage, by
   * its person with the removal link of a waitlist mail (their name and email erased).
   */
  status: z.enum(['unconfirmed', 'waiting', 'fulfilled', 'claimed', 'removed']),
  /** The fundraiser made for it; null while waiting. */
  fundraiserId: z.string().nullable(),
});
export type AdminWaitlistEntry = z.infer<typeof adminWaitlistEntry>;
export type WaitlistEntryStatus = AdminWaitlistEntry['status'];

export const waitlistEntryParams = z.object({ entryId: resourceId });

/** A fulfilled entry: its fundraiser, owned by nobody until claimed, and where to get its QR code. */
export const fulfilledWaitlistEntry = z
  .object({
    entryId: z.string(),
    status: z.literal('fulfilled'),
    fundraiser: fundraiser,
    qr: z.object({
      /** Paths of this API: the code to print, as SVG (any size) and PNG. */
      svg: z.string(),
      png: z.string(),
      /** What the code encodes: the fundraiser's short link `PUBLIC_BASE_URL/q/<code>`. */
      target: z.string(),
    }),
  })
  .meta({ id: 'FulfilledWaitlistEntry' });
export type FulfilledWaitlistEntry = z.infer<typeof fulfilledWaitlistEntry>;

export const fulfilWaitlistBatchRequest = z.object({
  shirtId: text('shirtId', 128),
  size: text('size', 32),
});
export type FulfilWaitlistBatchRequest = z.infer<typeof fulfilWaitlistBatchRequest>;

export const adminWaitlistEntriesPage = z
  .object({
    /** Newest first. */
    entries: z.array(adminWaitlistEntry),
    /** Pass as `after` for the next page; null on the last one. */
    next: z.number().int().nullable(),
  })
  .meta({ id: 'AdminWaitlistEntries' });
export type AdminWaitlistEntriesPage = z.infer<typeof adminWaitlistEntriesPage>;

// Projections

export const projectionNameParams = z.object({ name: resourceId });

export const rebuildStatus = z
  .object({
    projection: z.string(),
    state: z.enum(['running', 'done', 'failed']),
    fromVersion: z.number().int(),
    toVersion: z.number().int().nullable(),
    /**
     * Log position the rebuild has projected up to: with `total`, the share of the log read (in
     * events on SQLite, in bytes on EventStoreDB).
     */
    done: z.number().int(),
    /** Head position of the log when the rebuild last looked. */
    total: z.number().int(),
    /** Events of the projection's types projected so far. */
    eventsProjected: z.number().int(),
    startedAt: z.string(),
    finishedAt: z.string().nullable(),
    error: z.string().nullable(),
  })
  .meta({ id: 'RebuildStatus' });
export type RebuildStatus = z.infer<typeof rebuildStatus>;

export const projectionState = z.enum(['running', 'catching-up', 'rebuilding', 'failed']);
export type ProjectionState = z.infer<typeof projectionState>;

export const adminProjection = z.object({
  name: z.string(),
  state: projectionState,
  /** The read-model version readers see (blue/green). */
  activeVersion: z.number().int(),
  /** Position of the last event projected; null before the first. */
  checkpoint: z.number().int().nullable(),
  /**
   * 0 when no event of its types lies beyond the checkpoint, else head position minus checkpoint.
   * Null where positions are byte offsets (`positionUnit` "bytes"): the store cannot count them.
   */
  lagEvents: z.number().int().nullable(),
  /** Age of the oldest event of its types not projected yet; 0 when caught up. */
  lagSeconds: z.number(),
  /** Why the last attempt failed, when this process runs the projection and it did. */
  lastError: z.string().nullable(),
  /** The last rebuild started from this gateway, if any. */
  rebuild: rebuildStatus.nullable(),
});
export type AdminProjection = z.infer<typeof adminProjection>;

export const adminProjections = z
  .object({
    /** Global position of the newest event: the number of events where `positionUnit` is "events". */
    headPosition: z.number().int(),
    /** "events" (SQLite, in memory) or "bytes" (EventStoreDB, whose positions are log offsets). */
    positionUnit: z.enum(['events', 'bytes']),
    projections: z.array(adminProjection),
  })
  .meta({ id: 'AdminProjections' });
export type AdminProjections = z.infer<typeof adminProjections>;

// Event browser

const instantOrDay = z.union([z.iso.datetime({ offset: true }), z.iso.date()], {
  error: 'expected an ISO date (2024-05-01) or instant (2024-05-01T12:00:00Z)',
});

export const adminEventsQuery = z.object({
  /**
   * Streams whose name starts with this, e.g. `fundraiser-` or `waitlist-`. Never `$`: those are
   * the event store's own streams, and on EventStoreDB `$idx-…` would read a secondary index.
   */
  streamPrefix: unsetWhenBlank(
    z
      .string()
      .max(200)
      .refine(
        (prefix) => !prefix.startsWith('$'),
        'streamPrefix must not start with $: those are the store’s own streams',
      ),
  ),
  /** One event type or several, comma-separated. */
  type: unsetWhenBlank(
    z
      .string()
      .max(2000)
      .transform((value) =>
        value
          .split(',')
          .map((type) => type.trim())
          .filter(Boolean),
      )
      .pipe(z.array(z.string().max(100)).min(1).max(30, 'at most 30 types')),
  ),
  /** Recorded at or after; a date means its start (UTC). */
  from: unsetWhenBlank(instantOrDay),
  /** Recorded before; a date includes that whole day (UTC). */
  to: unsetWhenBlank(instantOrDay),
  /** The `next` of the previous page. */
  after: unsetWhenBlank(z.coerce.number().int().nonnegative()),
  limit: z.coerce.number().int().min(1).max(500).default(50),
  order: z.enum(['newest', 'oldest']).default('newest'),
  /** Show names and emails as stored instead of masked. */
  reveal: z
    .enum(['true', 'false'])
    .default('false')
    .transform((value) => value === 'true'),
});
export type AdminEventsQuery = z.infer<typeof adminEventsQuery>;

export const adminEvent = z.object({
  position: z.number().int(),
  stream: z.string(),
  revision: z.number().int(),
  id: z.string(),
  type: z.string(),
  time: z.string(),
  data: z.unknown(),
  metadata: z.record(z.string(), z.unknown()),
});
export type AdminEvent = z.infer<typeof adminEvent>;

export const adminEventsPage = z
  .object({
    events: z.array(adminEvent),
    /**
     * Pass as `after` for the next page (in the same order); null on the last one. A page can
     * hold fewer than `limit` events, or none, and still have a next: on EventStoreDB one request
     * examines a bounded stretch of the log, and the next page reads on from where it stopped.
     */
    next: z.number().int().nullable(),
    /** Whether names and emails are shown as stored. */
    revealed: z.boolean(),
  })
  .meta({ id: 'AdminEvents' });
export type AdminEventsPage = z.infer<typeof adminEventsPage>;

// Audit trail

export const adminAuditQuery = z.object({
  /** The `next` of the previous page. */
  after: unsetWhenBlank(z.coerce.number().int().positive()),
  limit: z.coerce.number().int().min(1).max(500).default(50),
});

// Outbox

export const outboxStatus = z.enum(['queued', 'sent', 'dead']);
export type OutboxStatus = z.infer<typeof outboxStatus>;

/** One message of the mail outbox, as admins see it: the address masked, no body. */
export const adminOutboxMessage = z
  .object({
    id: z.string(),
    /** `webhook`: the demo processor's signed webhooks, delivered to this product. */
    channel: z.enum(['email', 'sms', 'webhook']),
    /** Masked like every address in admin (`a***@example.com`, `+12*****89`); a webhook's target as is. */
    to: z.string(),
    subject: z.string(),
    status: outboxStatus,
    attempts: z.number().int().nonnegative(),
    createdAt: z.string(),
    /** When the sender tries next (queued only). */
    nextAttemptAt: z.string().nullable(),
    sentAt: z.string().nullable(),
    lastError: z.string().nullable(),
  })
  .meta({ id: 'AdminOutboxMessage' });
export type AdminOutboxMessage = z.infer<typeof adminOutboxMessage>;

export const adminOutboxQuery = z.object({
  status: outboxStatus.optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  /** `nextCursor` of the previous page. */
  cursor: z
    .string()
    .regex(/^\d{1,15}$/, 'expected a nextCursor from a previous page')
    .optional(),
});
export type AdminOutboxQuery = z.infer<typeof adminOutboxQuery>;

export const adminOutboxPage = z
  .object({
    messages: z.array(adminOutboxMessage),
    counts: z.object({ queued: z.number().int(), sent: z.number().int(), dead: z.number().int() }),
    nextCursor: z.string().nullable(),
  })
  .meta({ id: 'AdminOutboxPage' });
export type AdminOutboxPage = z.infer<typeof adminOutboxPage>;

const forbidden = { description: 'Not an admin (anonymous sessions included)', schema: errorAnswer };
const invalidFields = {
  description: 'Invalid fields: `fields` maps each one to its problem',
  schema: fieldErrorsAnswer,
};
const guarded = { 401: unauthenticated, 403: forbidden };
/** Names and emails in clear are shown or downloaded only once the audit trail recorded who asked. */
const auditUnavailable = {
  description: 'The audit trail could not record this request, so nothing is shown; try again in a moment',
  schema: errorAnswer,
};

/** Totals and series across the shop. */
export const adminOverviewRoutes = defineRoutes({
  getAdminOverview: {
    method: 'get',
    path: '/api/admin/overview',
    summary: 'Totals, per-day series, top fundraisers and charities',
    auth: 'admin',
    query: adminOverviewQuery,
    answers: {
      200: { description: 'Figures across all fundraisers', schema: adminOverview },
      400: invalid,
      ...guarded,
    },
  },
});

/** Reviewing and editing charities. */
export const adminCharityRoutes = defineRoutes({
  listAdminCharities: {
    method: 'get',
    path: '/api/admin/charities',
    summary: 'Charities by review status: pending (the default), approved or rejected',
    auth: 'admin',
    query: adminCharitiesQuery,
    answers: {
      200: { description: 'The charities, oldest first', schema: adminCharityList },
      400: invalid,
      ...guarded,
    },
  },
  approveCharity: {
    method: 'post',
    path: '/api/admin/charities/{id}/approve',
    summary: 'Let a pending (or rejected) charity into the shop; approving an approved one changes nothing',
    auth: 'admin',
    params: idParams,
    answers: {
      200: { description: 'The charity, approved', schema: charityWithStatus },
      ...guarded,
      404: notFound,
    },
  },
  rejectCharity: {
    method: 'post',
    path: '/api/admin/charities/{id}/reject',
    summary: 'Keep a pending charity out of the shop, with a reason its submitter sees',
    auth: 'admin',
    params: idParams,
    body: adminRejectCharityRequest,
    answers: {
      200: {
        description: 'The charity, rejected (a repeated rejection keeps the first reason)',
        schema: charityWithStatus,
      },
      400: invalidFields,
      ...guarded,
      404: notFound,
      409: { description: 'The charity is in the shop already', schema: errorAnswer },
    },
  },
  adminCreateCharity: {
    method: 'post',
    path: '/api/admin/charities',
    summary: 'Create a charity (in the shop at once)',
    auth: 'admin',
    body: adminCreateCharityRequest,
    answers: { 201: { description: 'The new charity', schema: adminCharityDetails }, 400: invalidFields, ...guarded },
  },
  adminUpdateCharity: {
    method: 'put',
    path: '/api/admin/charities/{id}',
    summary: 'Change a charity (the fields given)',
    auth: 'admin',
    params: idParams,
    body: adminUpdateCharityRequest,
    answers: {
      200: { description: 'The charity as changed', schema: adminCharityDetails },
      400: invalidFields,
      ...guarded,
      404: notFound,
    },
  },
});

/** Adding and editing shirts. */
export const adminShirtRoutes = defineRoutes({
  adminCreateShirt: {
    method: 'post',
    path: '/api/admin/shirts',
    summary: 'Add a shirt',
    auth: 'admin',
    body: adminCreateShirtRequest,
    answers: { 201: { description: 'The new shirt', schema: shirt }, 400: invalidFields, ...guarded },
  },
  adminUpdateShirt: {
    method: 'put',
    path: '/api/admin/shirts/{id}',
    summary: 'Change a shirt (the fields given)',
    auth: 'admin',
    params: idParams,
    body: adminUpdateShirtRequest,
    answers: {
      200: { description: 'The shirt as changed', schema: shirt },
      400: invalidFields,
      ...guarded,
      404: notFound,
    },
  },
});

/** The waitlist's entries, and fulfilling them. */
export const adminWaitlistRoutes = defineRoutes({
  getAdminWaitlistStats: {
    method: 'get',
    path: '/api/admin/waitlist',
    summary: 'Waitlist counts per shirt, size and charity, with names',
    auth: 'admin',
    answers: { 200: { description: 'Counts', schema: adminWaitlistStats }, ...guarded },
  },
  listWaitlistEntries: {
    method: 'get',
    path: '/api/admin/waitlist/entries',
    summary: 'Waitlist entries with names and emails, newest first (recorded in the audit trail)',
    auth: 'admin',
    query: adminWaitlistEntriesQuery,
    answers: {
      200: { description: 'One page', schema: adminWaitlistEntriesPage },
      400: invalid,
      ...guarded,
      503: auditUnavailable,
    },
  },
  downloadWaitlistCsv: {
    method: 'get',
    path: '/api/admin/waitlist/entries.csv',
    summary: 'Every waitlist entry as a CSV download (recorded in the audit trail)',
    auth: 'admin',
    answers: {
      200: {
        description: 'joinedAt, name, email, size, shirtId, shirtName, charityId, charityName, status, fundraiserId',
        contentType: 'text/csv',
      },
      ...guarded,
      503: auditUnavailable,
    },
  },
  fulfilWaitlistEntry: {
    method: 'post',
    path: '/api/admin/waitlist/entries/{entryId}/fulfil',
    summary:
      "Make a fundraiser for the entry's shirt and charity, owned by nobody yet, and mail its person a claim link",
    auth: 'admin',
    params: waitlistEntryParams,
    answers: {
      201: { description: 'The fundraiser and its QR code', schema: fulfilledWaitlistEntry },
      ...guarded,
      404: { description: 'Unknown entry', schema: errorAnswer },
      409: {
        description: "Fulfilled already, or the entry's shirt or charity is no longer in the shop",
        schema: errorAnswer,
      },
      410: { description: 'Its person removed the entry (their name and email are erased)', schema: errorAnswer },
    },
  },
  reissueClaimLink: {
    method: 'post',
    path: '/api/admin/waitlist/entries/{entryId}/claim-link',
    summary:
      "Mail a fulfilled entry's person a new claim link (the first expired or never arrived); the earlier link stops working",
    auth: 'admin',
    params: waitlistEntryParams,
    answers: {
      200: { description: 'The fundraiser the new link claims, and its QR code', schema: fulfilledWaitlistEntry },
      ...guarded,
      404: { description: 'Unknown entry, or one not fulfilled', schema: errorAnswer },
      409: { description: 'Claimed already', schema: errorAnswer },
      410: { description: 'Its person removed the entry (their name and email are erased)', schema: errorAnswer },
    },
  },
  fulfilWaitlistBatch: {
    method: 'post',
    path: '/api/admin/waitlist/fulfil',
    summary:
      'Fulfil every waiting entry of a shirt in a size: a print-ready PDF sheet of their QR codes, each with its short code',
    auth: 'admin',
    body: fulfilWaitlistBatchRequest,
    answers: {
      200: {
        description: 'A4 pages of QR codes, each with its short code (the fundraiser id) under it',
        contentType: 'application/pdf',
      },
      400: invalidFields,
      ...guarded,
      404: { description: 'Unknown shirt, or no entry of it in that size is waiting', schema: errorAnswer },
      409: { description: 'Every waiting entry was fulfilled meanwhile', schema: errorAnswer },
    },
  },
});

/** The mail outbox. */
export const adminOutboxRoutes = defineRoutes({
  listOutbox: {
    method: 'get',
    path: '/api/admin/outbox',
    summary: 'Mail and SMS messages: status, tries, last error (addresses masked), newest first',
    auth: 'admin',
    query: adminOutboxQuery,
    answers: {
      200: { description: 'One page, and the count per status', schema: adminOutboxPage },
      400: invalid,
      ...guarded,
    },
  },
  retryOutboxMessage: {
    method: 'post',
    path: '/api/admin/outbox/{id}/retry',
    summary: 'Send a message again now (a dead one gets a fresh 24 hours of tries)',
    auth: 'admin',
    params: idParams,
    answers: {
      200: { description: 'The message, queued', schema: adminOutboxMessage },
      ...guarded,
      404: notFound,
      409: { description: 'Already sent', schema: errorAnswer },
    },
  },
});

/** The read models and their rebuilds. */
export const adminProjectionRoutes = defineRoutes({
  listProjections: {
    method: 'get',
    path: '/api/admin/projections',
    summary: 'Each projection: checkpoint, lag, state, rebuild',
    auth: 'admin',
    answers: { 200: { description: 'Projection status', schema: adminProjections }, ...guarded },
  },
  startRebuild: {
    method: 'post',
    path: '/api/admin/projections/{name}/rebuild',
    summary: 'Start a blue/green rebuild of a projection',
    auth: 'admin',
    params: projectionNameParams,
    answers: {
      202: { description: 'Started; GET the same path for its progress', schema: rebuildStatus },
      ...guarded,
      404: { description: 'Unknown projection', schema: errorAnswer },
      409: { description: 'A rebuild of it is already running', schema: errorAnswer },
    },
  },
  getRebuild: {
    method: 'get',
    path: '/api/admin/projections/{name}/rebuild',
    summary: 'Progress of the last rebuild started from this gateway',
    auth: 'admin',
    params: projectionNameParams,
    answers: {
      200: { description: 'Rebuild progress', schema: rebuildStatus },
      ...guarded,
      404: { description: 'Unknown projection, or none started here', schema: errorAnswer },
    },
  },
});

/** Erasing a person. */
export const adminUserRoutes = defineRoutes({
  eraseUser: {
    method: 'delete',
    path: '/api/admin/users/{id}',
    summary:
      'Erase a person: their account is closed as if they had closed it, and the log records which operator did it',
    auth: 'admin',
    params: idParams,
    answers: {
      204: { description: 'Erased' },
      ...guarded,
      404: { description: 'Unknown user, or one erased already', schema: errorAnswer },
    },
  },
});

/** The event log. */
export const adminEventRoutes = defineRoutes({
  listEvents: {
    method: 'get',
    path: '/api/admin/events',
    summary: 'Browse the event log (names and emails masked unless reveal=true, which the audit trail records)',
    auth: 'admin',
    query: adminEventsQuery,
    answers: {
      200: { description: 'One page of events', schema: adminEventsPage },
      400: invalid,
      ...guarded,
      503: auditUnavailable,
    },
  },
});

/** The event log as a replay file. */
export const adminReplayRoutes = defineRoutes({
  downloadReplay: {
    method: 'get',
    path: '/api/admin/replay',
    summary:
      'The donation history replayed from the event log, as `npm run replay-donations` writes it (recorded in the audit trail)',
    auth: 'admin',
    query: adminReplayQuery,
    answers: {
      200: {
        description:
          'A download: CSV, or with format=ndjson one JSON object per line (application/x-ndjson); per group: ' +
          "scans, donations, gross, refunds, disputes, amountRaised, fees (Stripe's), platformFees (the platform's " +
          'share), net (amountRaised less fees), fundraisers',
        contentType: 'text/csv',
      },
      400: invalid,
      ...guarded,
      503: auditUnavailable,
    },
  },
});

/** Who saw names and emails. */
export const adminAuditRoutes = defineRoutes({
  listAdminAudit: {
    method: 'get',
    path: '/api/admin/audit',
    summary: 'The audit trail: who revealed or downloaded names and emails, or erased a person, and when',
    auth: 'admin',
    query: adminAuditQuery,
    answers: {
      200: { description: 'One page, newest first', schema: adminAuditPage },
      400: invalid,
      ...guarded,
    },
  },
});

/** The admin API (ADMIN_EMAILS). */
export const adminRoutes = {
  ...adminOverviewRoutes,
  ...adminCharityRoutes,
  ...adminShirtRoutes,
  ...adminWaitlistRoutes,
  ...adminOutboxRoutes,
  ...adminProjectionRoutes,
  ...adminUserRoutes,
  ...adminEventRoutes,
  ...adminReplayRoutes,
  ...adminAuditRoutes,
};
