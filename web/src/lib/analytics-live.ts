/**
 * Whether the app records this page's analytics itself: set by its first page view. Until then a
 * server-rendered page's early script (app/server-pages/early-analytics.ts) records the taps on
 * its links and its own view, so each is recorded once, by one of the two. An attribute of the
 * document, since the early script shares no module with the app.
 */
const LIVE_ATTRIBUTE = 'data-analytics-live';

export function markAnalyticsLive(): void {
  document.documentElement.setAttribute(LIVE_ATTRIBUTE, '');
}

export function analyticsLive(): boolean {
  return document.documentElement.hasAttribute(LIVE_ATTRIBUTE);
}
