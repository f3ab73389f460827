import { DEMO_MODE_META } from '@qrshirt/contracts';

/**
 * Whether the gateway that served this page takes no real money (no live processor: the demo
 * processor's or Stripe's test money only), as its meta tag says. Owners then see the test money
 * in place of the money raised, labelled; without the tag (live keys, Vite's dev server) never.
 */
export function isDemoMode(): boolean {
  if (typeof document === 'undefined') return false;
  return document.querySelector(`meta[name="${DEMO_MODE_META}"]`)?.getAttribute('content') === 'true';
}
