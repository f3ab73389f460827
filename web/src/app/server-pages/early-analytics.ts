import type { AnalyticsEvent } from '@qrshirt/contracts';
import { analyticsLive } from '@/lib/analytics-live';

/**
 * `recordAnalytics`'s address, written out: this runs before the route table (and zod) has loaded,
 * and a tap followed by a page's unload leaves no time to load it. early-analytics.test.tsx holds
 * it to the route table's.
 */
// eslint-disable-next-line no-restricted-syntax
export const EARLY_ANALYTICS_PATH = '/api/analytics';

/**
 * Sends events as the app's analytics do when a page is left (a keepalive request, which outlives
 * the page), without the app's modules. The API's address is the build's, as Vite writes it in,
 * since the app's parsed settings are not loaded yet either.
 */
function send(events: AnalyticsEvent[]): void {
  const configured: unknown = import.meta.env.VITE_API_URL;
  const base = typeof configured === 'string' ? configured.trim().replace(/\/$/, '') : '';
  void fetch(`${base}${EARLY_ANALYTICS_PATH}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ events }),
    keepalive: true,
    credentials: 'omit',
  }).catch((error: unknown) => console.warn('Analytics batch not sent', error));
}

/**
 * Spec section 7's events for the taps made before a server-rendered page is live: a link into a
 * shirt (`data-shirt-id`) records `shirt_clicked` as it is followed, and a page left before it
 * went live records its own view. Once the app records them (analytics-live.ts), this does
 * nothing, so each is recorded once. Answers how to stop listening.
 */
export function recordEarlyAnalytics(): () => void {
  const listening = new AbortController();
  const { signal } = listening;
  document.addEventListener(
    'click',
    (event) => {
      if (analyticsLive() || !(event.target instanceof Element)) return;
      const link = event.target.closest<HTMLElement>('a[data-shirt-id]');
      const shirtId = link?.dataset.shirtId;
      if (shirtId) send([{ type: 'shirt_clicked', shirt_id: shirtId, shirt_name: link.dataset.shirtName ?? '' }]);
    },
    { capture: true, signal },
  );
  window.addEventListener(
    'pagehide',
    () => {
      if (!analyticsLive()) send([{ type: 'page_view', path: window.location.pathname, title: document.title }]);
    },
    { once: true, signal },
  );
  return () => listening.abort();
}
