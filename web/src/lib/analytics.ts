import { type AnalyticsEvent, MAX_ANALYTICS_BATCH } from '@qrshirt/contracts';
import { api } from './api-client';

/** Events wait this long so a page view and the click after it travel in one request. */
const FLUSH_DELAY_MS = 1000;

let queue: AnalyticsEvent[] = [];
let timer: ReturnType<typeof setTimeout> | undefined;

function flush(): void {
  clearTimeout(timer);
  timer = undefined;
  while (queue.length > 0) {
    const events = queue.slice(0, MAX_ANALYTICS_BATCH);
    queue = queue.slice(MAX_ANALYTICS_BATCH);
    // Analytics never disturbs the visitor: a lost batch is only worth a warning.
    api('/api/analytics', { method: 'POST', body: { events }, keepalive: true }).catch((error: unknown) =>
      console.warn('Analytics batch not sent', error),
    );
  }
}

/** Spec section 7: page views and the named events go to the backend's analytics endpoint. */
export function track(event: AnalyticsEvent): void {
  queue.push(event);
  timer ??= setTimeout(flush, FLUSH_DELAY_MS);
}

export function trackPageView(path: string, title?: string): void {
  track({ type: 'page_view', path, ...(title && { title }) });
}

if (typeof window !== 'undefined') {
  // Leaving the page: send what is queued now rather than lose it.
  window.addEventListener('pagehide', flush);
}
