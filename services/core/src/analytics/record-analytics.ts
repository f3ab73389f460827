import type { AnalyticsAccepted, AnalyticsEvent } from '@qrshirt/contracts';
import type { Clock } from '../kit/clock';
import type { AnalyticsFact, Ingestion } from '../ports/ingestion';

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

/** A batch of the web client's analytics events, durable (stored or acknowledged by Kafka) when it resolves. */
export function createRecordAnalytics({ ingestion, clock }: { ingestion: Ingestion; clock: Clock }) {
  return async (events: readonly AnalyticsEvent[]): Promise<AnalyticsAccepted> => {
    const at = clock().toISOString();
    await ingestion.recordAnalytics(events.map((event) => toFact(event, at)));
    return { accepted: events.length };
  };
}
