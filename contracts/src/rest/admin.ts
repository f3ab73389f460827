import { z } from 'zod';
import { dailyStats } from './fundraisers';
import { resourceId } from './ids';
import { waitlistStats } from './waitlist';

/*
 * The admin API (/api/admin/*): operators manage the catalogue and watch the system. Request
 * schemas carry messages meant to be shown next to a form's fields.
 */

/** A 400 from an admin form: `fields` maps a field's path (`name`, `images.0.url`) to its problem. */
export const fieldErrorsAnswer = z
  .object({ error: z.string(), fields: z.record(z.string(), z.string()) })
  .meta({ id: 'FieldErrors' });
export type FieldErrorsAnswer = z.infer<typeof fieldErrorsAnswer>;

const text = (label: string, max: number) =>
  z
    .string({ error: (issue) => (issue.input === undefined ? `${label} is required` : `${label} must be text`) })
    .trim()
    .min(1, `${label} is required`)
    .max(max, `${label} must be at most ${max} characters`);

/** Optional: an empty form input or query parameter (a cleared field or filter) means "not given". */
const unsetWhenBlank = <Schema extends z.ZodType>(schema: Schema) =>
  z.preprocess((value) => (value === '' || value === null ? undefined : value), schema.optional());

/** Links the shop renders: web addresses only (never `javascript:`), or paths on this site (not `//host`). */
const webAddress = (label: string) =>
  text(label, 2048).regex(/^(https?:\/\/\S+|\/(?!\/)\S*)$/, `${label} must start with https://, http:// or /`);

const charityFields = z.object({
  name: text('Name', 200),
  mission: text('Mission', 2000),
  website_url: text('Website', 2048).pipe(
    z.url({ protocol: /^https?$/, error: 'Website must be a full address, like https://example.org' }),
  ),
  logo_url: unsetWhenBlank(webAddress('Logo')),
});

const atLeastOneField = (fields: object) => Object.values(fields).some((value) => value !== undefined);
const NOTHING_TO_CHANGE = 'Give at least one field to change';

export const adminCreateCharityRequest = charityFields;
export type AdminCreateCharityRequest = z.infer<typeof adminCreateCharityRequest>;
/** Only the fields given change; the others keep their values. */
export const adminUpdateCharityRequest = charityFields.partial().refine(atLeastOneField, NOTHING_TO_CHANGE);
export type AdminUpdateCharityRequest = z.infer<typeof adminUpdateCharityRequest>;

const imageInput = z.object({
  id: text('Image id', 128),
  url: webAddress('Image address'),
  alt: z
    .string({ error: 'Image description must be text' })
    .trim()
    .max(500, 'Image description must be at most 500 characters'),
  isMain: z.boolean({ error: 'Main image must be true or false' }),
});

const shirtFields = z.object({
  name: text('Name', 200),
  description: z
    .string({ error: (issue) => (issue.input === undefined ? 'Description is required' : 'Description must be text') })
    .trim()
    .max(5000, 'Description must be at most 5000 characters'),
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
export const adminUpdateShirtRequest = shirtFields.partial().refine(atLeastOneField, NOTHING_TO_CHANGE);
export type AdminUpdateShirtRequest = z.infer<typeof adminUpdateShirtRequest>;

/** GET /api/me: who the caller is, and whether the admin area is theirs. */
export const me = z
  .object({
    uid: z.string(),
    anonymous: z.boolean(),
    admin: z.boolean(),
    /** Whether the account's address was verified by a mailed link (or by Google); false for anonymous. */
    emailVerified: z.boolean(),
  })
  .meta({ id: 'Me' });
export type Me = z.infer<typeof me>;

// Overview

const amount = z.number().meta({ description: 'Dollars' });

export const adminOverviewQuery = z.object({
  top: z.coerce.number().int().min(1).max(100).default(10),
});

export const adminOverview = z
  .object({
    totals: z.object({
      scans: z.number().int(),
      donations: z.number().int(),
      amountRaised: amount,
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
  name: z.string(),
  email: z.string(),
  size: z.string(),
  charityId: z.string(),
  charityName: z.string().nullable(),
  shirtId: z.string(),
  shirtName: z.string().nullable(),
  joinedAt: z.string(),
});
export type AdminWaitlistEntry = z.infer<typeof adminWaitlistEntry>;

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
    /** Log position the rebuild has projected up to (on SQLite, events read). */
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
  /** 0 when no event of its types lies beyond the checkpoint, else head position minus checkpoint. */
  lagEvents: z.number().int(),
  /** Age of the oldest event of its types not projected yet; 0 when caught up. */
  lagSeconds: z.number(),
  /** Why the last attempt failed, when this process runs the projection and it did. */
  lastError: z.string().nullable(),
  /** The last rebuild started from this gateway, if any. */
  rebuild: rebuildStatus.nullable(),
});
export type AdminProjection = z.infer<typeof adminProjection>;

export const adminProjections = z
  .object({ headPosition: z.number().int(), projections: z.array(adminProjection) })
  .meta({ id: 'AdminProjections' });
export type AdminProjections = z.infer<typeof adminProjections>;

// Event browser

const instantOrDay = z.union([z.iso.datetime({ offset: true }), z.iso.date()], {
  error: 'expected an ISO date (2024-05-01) or instant (2024-05-01T12:00:00Z)',
});

export const adminEventsQuery = z.object({
  /** Streams whose name starts with this, e.g. `fundraiser-` or `waitlist-`. */
  streamPrefix: unsetWhenBlank(z.string().max(200)),
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
    /** Pass as `after` for the next page (in the same order); null on the last one. */
    next: z.number().int().nullable(),
    /** Whether names and emails are shown as stored. */
    revealed: z.boolean(),
  })
  .meta({ id: 'AdminEvents' });
export type AdminEventsPage = z.infer<typeof adminEventsPage>;

// Outbox

export const outboxStatus = z.enum(['queued', 'sent', 'dead']);
export type OutboxStatus = z.infer<typeof outboxStatus>;

/** One message of the mail outbox, as admins see it: the address masked, no body. */
export const adminOutboxMessage = z
  .object({
    id: z.string(),
    channel: z.enum(['email', 'sms']),
    /** Masked like every address in admin (`a***@example.com`, `+12*****89`). */
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
