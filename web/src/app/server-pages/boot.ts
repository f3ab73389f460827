/*
 * The one script tag of the server-rendered pages (the QR landing, the homepage, the shop and a
 * shirt's page), loaded with `async` so it runs as soon as it arrives. First what keeps the taps,
 * the typing and the page view made before the page is live (early-analytics.ts, early-form.ts),
 * for the app to take once it is. Then, on the landing, the scan: a QR code's visit
 * (`?scan=true`) loads, at once and waiting for nothing else, the module that records it as the
 * app's calls go, with the visitor's session (landing-scan.ts).
 * Then, on the landing, its own small script once the page is parsed and painted
 * (landing-script.ts), which loads React only when needed. On the other pages, once the page has
 * loaded and painted what the server sent, the code that hydrates it, in steps with a pause
 * between them: each step's code is evaluated in a task of its own, none long enough to keep a
 * phone from answering a tap for long.
 */
import { recordEarlyAnalytics } from './early-analytics';
import { keepEarlyForms } from './early-form';

recordEarlyAnalytics();
keepEarlyForms();

const address = new URL(window.location.href);
const fundraiserId = /^\/fundraiser\/([^/]+)$/.exec(address.pathname)?.[1];
if (fundraiserId && address.searchParams.get('scan') === 'true') {
  void import('./landing-scan')
    .then(({ recordLandingScan }) => recordLandingScan(decodeURIComponent(fundraiserId)))
    .catch((error: unknown) => console.warn('Recording the scan failed', error));
}

/** The landing's addresses: a short link nobody holds answers with its not-found view. */
const LANDING_PATH = /^\/(fundraiser|q)\//;

/** The modules that hydrate the page the server sent: the shop, a shirt's or the homepage. */
function pageClient(pathname: string): (() => Promise<unknown>)[] {
  if (pathname === '/shop') return [() => import('./shop-libraries'), () => import('./shop-client')];
  if (pathname.startsWith('/shirt/')) return [() => import('./shirt-libraries'), () => import('./shirt-client')];
  return [() => import('./home-client')];
}

const pause = () => new Promise((resolve) => setTimeout(resolve, 0));
const hydrate = async () => {
  const steps = [
    () => import('react-dom/client'),
    () => import('./zod-jitless'),
    () => import('./session-schemas'),
    () => import('./catalog-schemas'),
    () => import('./libraries'),
    () => import('./routing'),
    ...pageClient(address.pathname),
  ];
  for (const step of steps) {
    await pause();
    await step();
  }
};
/** The landing's own script, small: as soon as the page is parsed and painted, not once all of it loaded. */
const startLanding = () =>
  requestAnimationFrame(() => {
    setTimeout(() => void import('./landing-script'), 0);
  });

if (LANDING_PATH.test(address.pathname)) {
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', startLanding, { once: true });
  else startLanding();
} else if (document.readyState === 'complete') void hydrate();
else window.addEventListener('load', () => void hydrate(), { once: true });
