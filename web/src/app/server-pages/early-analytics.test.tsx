import { analyticsRoutes } from '@qrshirt/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { markAnalyticsLive } from '@/lib/analytics-live';
import { EARLY_ANALYTICS_PATH, recordEarlyAnalytics } from './early-analytics';

const sent = vi.fn((_url: string, _init: RequestInit) => Promise.resolve(new Response(null, { status: 202 })));
let stop: () => void;
beforeEach(() => {
  // Component tests share one document per worker: another test's page view marked it live.
  document.documentElement.removeAttribute('data-analytics-live');
  sent.mockClear();
  vi.stubGlobal('fetch', sent);
  stop = recordEarlyAnalytics();
});
afterEach(() => {
  stop();
  vi.unstubAllGlobals();
  document.body.innerHTML = '';
});

function shirtLink(): HTMLAnchorElement {
  document.body.innerHTML = `<a href="#scan-me" data-shirt-id="scan-me" data-shirt-name="Scan Me"><span>Scan Me</span></a>`;
  return document.querySelector('a')!;
}
const bodies = () => sent.mock.calls.map(([url, init]) => [url, JSON.parse(init.body as string) as unknown]);

describe('analytics before a server-rendered page is live', () => {
  it('sends to the route table’s address for recordAnalytics', () => {
    expect(EARLY_ANALYTICS_PATH).toBe(analyticsRoutes.recordAnalytics.path);
  });

  it('records a tap on a shirt link as it is followed, and the page’s view when it is left', () => {
    shirtLink().querySelector('span')!.click();
    window.dispatchEvent(new Event('pagehide'));
    window.dispatchEvent(new Event('pagehide'));
    expect(bodies()).toEqual([
      ['/api/analytics', { events: [{ type: 'shirt_clicked', shirt_id: 'scan-me', shirt_name: 'Scan Me' }] }],
      ['/api/analytics', { events: [{ type: 'page_view', path: window.location.pathname, title: document.title }] }],
    ]);
    expect(sent.mock.calls[0]![1]).toMatchObject({ method: 'POST', keepalive: true });
  });

  it('leaves both to the app once it records them itself, so neither counts twice', () => {
    markAnalyticsLive();
    shirtLink().click();
    window.dispatchEvent(new Event('pagehide'));
    expect(sent).not.toHaveBeenCalled();
  });
});
