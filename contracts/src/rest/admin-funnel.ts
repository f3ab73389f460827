import { z } from 'zod';
import { defineRoutes, unauthenticated } from '../route';
import { errorAnswer } from './errors';
import { resourceId } from './ids';

/*
 * GET /api/admin/funnel: how visitors become supporters, per UTC day and per shirt, from events
 * already stored. The shop's steps: page views, shirt clicks, waitlist joins, entries fulfilled,
 * shirts claimed; a shirt's own: counted scans, confirmed donations.
 */

/** The longest range one request may ask for: a year, leap day included. */
export const MAX_FUNNEL_DAYS = 366;
/** Without `from`, the range is this many days up to `to`. */
export const DEFAULT_FUNNEL_DAYS = 30;

const utcDay = (meaning: string) =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, `${meaning} must be a UTC day like 2026-03-01`)
    // Date.parse rolls 2026-02-30 over into March: a real day is one that reads back as itself.
    .refine((day) => {
      const time = Date.parse(`${day}T00:00:00Z`);
      return !Number.isNaN(time) && new Date(time).toISOString().startsWith(day);
    }, `${meaning} must be a real day`)
    .optional();

export const adminFunnelQuery = z.object({
  /** The first UTC day; defaults to 30 days before `to`. */
  from: utcDay('from'),
  /** The last UTC day, included; defaults to today. */
  to: utcDay('to'),
  /** One shirt's funnel; every shirt's when absent. */
  shirtId: resourceId.optional(),
});
export type AdminFunnelQuery = z.infer<typeof adminFunnelQuery>;

export const funnelSteps = z.object({
  /** Views of the shirt's page; for every shirt together, every page view of the site. */
  pageViews: z.number().int(),
  shirtClicks: z.number().int(),
  waitlistJoins: z.number().int(),
  /** Waitlist entries an operator made a fundraiser for (`WaitlistEntryFulfilled`). */
  fulfilled: z.number().int(),
  /** Those fundraisers their person claimed (`FundraiserClaimed`). */
  claimed: z.number().int(),
  /** Counted scans of the shirt's fundraisers. */
  scans: z.number().int(),
  /** Donations the processor confirmed (net of refunds). */
  donations: z.number().int(),
  /** Dollars confirmed, net of refunds. */
  amountRaised: z.number(),
});
export type FunnelSteps = z.infer<typeof funnelSteps>;

export const adminFunnel = z
  .object({
    from: z.string(),
    to: z.string(),
    shirtId: z.string().nullable(),
    totals: funnelSteps,
    /** Every day of the range, oldest first, zeros included, so charts have no gaps. */
    daily: z.array(funnelSteps.extend({ date: z.string() })),
    /** Each shirt with any step in the range, most page views first. */
    shirts: z.array(funnelSteps.extend({ shirtId: z.string() })),
  })
  .meta({ id: 'AdminFunnel' });
export type AdminFunnel = z.infer<typeof adminFunnel>;

export const adminFunnelRoutes = defineRoutes({
  getAdminFunnel: {
    method: 'get',
    path: '/api/admin/funnel',
    summary: 'The funnel per day and per shirt: page views to claimed shirts, scans to donations',
    auth: 'admin',
    query: adminFunnelQuery,
    answers: {
      200: { description: 'The steps in the range', schema: adminFunnel },
      400: { description: 'A day that is not one, `from` after `to`, or more than 366 days', schema: errorAnswer },
      401: unauthenticated,
      403: { description: 'Not an admin', schema: errorAnswer },
    },
  },
});
