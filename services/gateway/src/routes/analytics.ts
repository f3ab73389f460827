import { analyticsBatch, type AnalyticsEvent } from '@qrshirt/contracts';
import type { AnalyticsFact } from '@qrshirt/core';
import { Router } from 'express';
import { parseInput } from '../http/validate';
import type { RouteDeps } from './route-deps';

const eventTypeOf = {
  page_view: 'PageViewed',
  shirt_clicked: 'ShirtClicked',
  waitlist_signup: 'WaitlistSignup',
  donation: 'DonationCompleted',
} as const satisfies Record<AnalyticsEvent['type'], AnalyticsFact['type']>;

/**
 * The client's names (spec section 3) mapped to our event types; the server stamps the time.
 * Each client shape is its event's data without `at`, which the contracts tests pin down.
 */
function toFact({ type, ...data }: AnalyticsEvent, at: string): AnalyticsFact {
  return { type: eventTypeOf[type], data: { ...data, at } } as AnalyticsFact;
}

export function analyticsRoutes({ ingestion, clock }: RouteDeps): Router {
  return Router().post('/api/analytics', async (req, res) => {
    const { events } = parseInput(analyticsBatch, req.body);
    const at = clock().toISOString();
    await ingestion.recordAnalytics(events.map((event) => toFact(event, at)));
    res.status(202).json({ accepted: events.length });
  });
}
