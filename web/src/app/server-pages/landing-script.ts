/*
 * What makes the server-rendered QR landing live, loaded by boot.ts once the page has painted:
 * without React for a visitor who only reads and donates (issue 44), so a phone that opened a
 * scanned shirt's page runs a few kilobytes of script rather than the app. It keeps the charity
 * in the local cache, records the page's view, makes the donation card live with the configured
 * widget (donation-card-script.ts), and warms the cache as the app does. The layout's React
 * (landing-layout.tsx) comes only when something needs it: a signed-in visitor, the first tap on
 * the menu or the cache panel's keys, or Stripe's Checkout in the card.
 */
// Before any schema is built: the pages' Content-Security-Policy forbids the eval zod would try.
import './zod-jitless';
import { CACHE_WARM_UP_DELAY_MS } from '@/config/constants';
import { stripePublishableKey } from '@/config/page-settings';
import { getCharities, getShirts } from '@/features/catalog/api/catalog-lists';
import { startDonationCard } from '@/features/donation/components/donation-card-script';
import { trackPageView } from '@/lib/analytics';
import { initAuth } from '@/lib/auth/auth-lifecycle';
import { getAuthState, subscribeToAuth } from '@/lib/auth/session-store';
import { cacheLandingData, type LandingCacheData } from './landing-cache';
import type { OwnerStatsFollower } from './landing-layout';
import { PAGE_DATA_ID, readPageData } from './page-data';

/** The attribute AppLayout gives its menu button, for a tap on it to be kept until it is live. */
const MENU_BUTTON = '[data-menu-button]';

const isCachePanelKeys = (event: KeyboardEvent) => event.ctrlKey && event.shiftKey && event.key.toLowerCase() === 'c';

// A fundraiser nobody has comes without data: nothing to cache, and no donation card.
if (document.getElementById(PAGE_DATA_ID)) cacheLandingData(readPageData<LandingCacheData>());
const donationIsland = document.querySelector<HTMLElement>('[data-island="donation"]');
const card = donationIsland
  ? {
      element: donationIsland,
      props: JSON.parse(donationIsland.dataset.props!) as { fundraiserId: string; charityName: string },
    }
  : undefined;
const withStripe = stripePublishableKey() !== null;

let layout: Promise<OwnerStatsFollower | undefined> | undefined;
let layoutLive = false;
const loadLayout = () => {
  layout ??= import('./landing-layout')
    .then(({ hydrateLandingLayout }) =>
      hydrateLandingLayout({ fundraiserId: card?.props.fundraiserId, withDonationCard: withStripe }),
    )
    .finally(() => {
      layoutLive = true;
    });
  layout.catch((error: unknown) => console.warn('The layout did not load', error));
  return layout;
};

trackPageView(window.location.pathname, document.title);
void initAuth();
const loadLayoutIfSignedIn = () => {
  const { session } = getAuthState();
  if (session && !session.user.anonymous) void loadLayout();
};
loadLayoutIfSignedIn();
subscribeToAuth(loadLayoutIfSignedIn);

if (withStripe) void loadLayout();
else if (card) {
  startDonationCard(card.element, card.props, {
    onReported: (donationId) => void layout?.then((owner) => owner?.reported(donationId)),
    onRecorded: (recorded, donationId) => void layout?.then((owner) => owner?.recorded(recorded, donationId)),
  });
}
// Spec section 9, as app/cache-warm-up.ts does it, through the local cache alone: this page has
// no query cache, and a list still fresh there is not asked for again.
setTimeout(() => {
  for (const load of [getShirts, getCharities]) {
    load().catch((error: unknown) => console.warn('The cache warm-up failed', error));
  }
}, CACHE_WARM_UP_DELAY_MS);

// A tap on the menu, or the panel's keys, before the layout is live: the first of them is done
// again once it is; the layout answers every later one itself.
let kept = false;
const keepUntilLive = (event: Event, again: () => void) => {
  event.preventDefault();
  if (kept) return;
  kept = true;
  loadLayout().then(again, (error: unknown) => console.warn('The layout did not load', error));
};
document.addEventListener(
  'click',
  (event) => {
    if (layoutLive || !(event.target instanceof Element)) return;
    const button = event.target.closest<HTMLElement>(MENU_BUTTON);
    if (button) keepUntilLive(event, () => button.click());
  },
  { capture: true },
);
window.addEventListener('keydown', (event) => {
  if (layoutLive || !isCachePanelKeys(event)) return;
  keepUntilLive(event, () => {
    window.dispatchEvent(new KeyboardEvent('keydown', { key: event.key, ctrlKey: true, shiftKey: true }));
  });
});
