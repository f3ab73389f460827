import {
  analyticsAccepted,
  type AnalyticsEvent,
  MAX_ANALYTICS_BATCH,
  MAX_ANALYTICS_BATCH_BYTES,
} from '@qrshirt/contracts';
import { markAnalyticsLive } from './analytics-live';
import { call } from './api-client';

/** Events wait this long so a page view and the click after it travel in one request. */
const FLUSH_DELAY_MS = 1000;

let queue: AnalyticsEvent[] = [];
let timer: ReturnType<typeof setTimeout> | undefined;

const encoder = new TextEncoder();
const bytesOf = (value: unknown) => encoder.encode(JSON.stringify(value)).length;
/** `{"events":[]}`: a batch's body around its events. */
const ENVELOPE_BYTES = bytesOf({ events: [] });

/**
 * `events` in request bodies the gateway takes: at most MAX_ANALYTICS_BATCH events and
 * MAX_ANALYTICS_BATCH_BYTES each (it answers a larger body 413), in their order.
 */
export function analyticsBatches(events: readonly AnalyticsEvent[]): AnalyticsEvent[][] {
  const batches: AnalyticsEvent[][] = [];
  let batch: AnalyticsEvent[] = [];
  let bytes = ENVELOPE_BYTES;
  for (const event of events) {
    const size = bytesOf(event);
    // Each event after the first one of a batch comes with its comma.
    if (batch.length === MAX_ANALYTICS_BATCH || (batch.length > 0 && bytes + 1 + size > MAX_ANALYTICS_BATCH_BYTES)) {
      batches.push(batch);
      batch = [];
      bytes = ENVELOPE_BYTES;
    }
    bytes += (batch.length > 0 ? 1 : 0) + size;
    batch.push(event);
  }
  if (batch.length > 0) batches.push(batch);
  return batches;
}

function flush(): void {
  clearTimeout(timer);
  timer = undefined;
  const events = queue;
  queue = [];
  for (const batch of analyticsBatches(events)) {
    // Analytics never disturbs the visitor: a lost batch is only worth a warning.
    call('recordAnalytics', { body: { events: batch }, keepalive: true, schema: analyticsAccepted }).catch(
      (error: unknown) => console.warn('Analytics batch not sent', error),
    );
  }
}

/** Spec section 7: page views and the named events go to the backend's analytics endpoint. */
export function track(event: AnalyticsEvent): void {
  queue.push(event);
  timer ??= setTimeout(flush, FLUSH_DELAY_MS);
}

export function trackPageView(path: string, title?: string): void {
  markAnalyticsLive();
  track({ type: 'page_view', path, ...(title && { title }) });
}

/**
 * Forgets what is queued and not sent yet. Component tests share one page per worker: each test
 * starts with nothing queued by another file's screens (web/src/testing/setup.ts).
 */
export function discardQueuedAnalytics(): void {
  clearTimeout(timer);
  timer = undefined;
  queue = [];
}

if (typeof window !== 'undefined') {
  // Leaving the page: send what is queued now rather than lose it.
  window.addEventListener('pagehide', flush);
}
