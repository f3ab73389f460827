import { z } from 'zod';
import { defineRoutes, invalidInput as invalid } from '../route';
import { errorAnswer } from './errors';

/** What the web client sends; the server stamps the time. Names follow the spec's analytics. */
export const analyticsEvent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('page_view'), path: z.string().min(1).max(2048), title: z.string().max(512).optional() }),
  z.object({ type: z.literal('shirt_clicked'), shirt_id: z.string().min(1).max(128), shirt_name: z.string().max(512) }),
  z.object({
    type: z.literal('waitlist_signup'),
    charity_id: z.string().min(1).max(128),
    charity_name: z.string().max(512),
    size: z.string().min(1).max(32),
    shirt_id: z.string().min(1).max(128),
    shirt_name: z.string().max(512),
  }),
  z.object({
    type: z.literal('donation'),
    fundraiser_id: z.string().min(1).max(128),
    amount: z.number().positive().max(1_000_000),
    currency: z.literal('USD'),
  }),
]);
export type AnalyticsEvent = z.infer<typeof analyticsEvent>;

export const MAX_ANALYTICS_BATCH = 100;
/**
 * The most bytes a batch's request body may hold: what one request can add to the log (about
 * 16 KB; a batch of the largest events allowed would be 260 KB). The web client sends larger
 * queues as several batches.
 */
export const MAX_ANALYTICS_BATCH_BYTES = 16_384;

export const analyticsBatch = z.object({ events: z.array(analyticsEvent).min(1).max(MAX_ANALYTICS_BATCH) });
export type AnalyticsBatch = z.infer<typeof analyticsBatch>;

export const analyticsAccepted = z.object({ accepted: z.number().int() }).meta({ id: 'AnalyticsAccepted' });
export type AnalyticsAccepted = z.infer<typeof analyticsAccepted>;

/** Page views and funnel events. */
export const analyticsRoutes = defineRoutes({
  recordAnalytics: {
    method: 'post',
    path: '/api/analytics',
    summary: 'A batch of page views and analytics events',
    auth: 'none',
    body: analyticsBatch,
    maxBodyBytes: MAX_ANALYTICS_BATCH_BYTES,
    // A visitor's pages send a batch a second at most; a school or an office shares an address.
    perClient: { requests: 120, seconds: 60 },
    answers: {
      202: { description: 'Accepted', schema: analyticsAccepted },
      400: invalid,
      503: { description: 'Ingestion is overloaded or down', schema: errorAnswer },
    },
  },
});
