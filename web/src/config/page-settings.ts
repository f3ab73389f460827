import { STRIPE_PUBLISHABLE_KEY_META } from '@qrshirt/contracts';

/**
 * Stripe's publishable key when the gateway's Stripe takes donations, from the meta tag its pages
 * carry (one build serves either setting); null without it: the configured donation widget.
 */
export function stripePublishableKey(): string | null {
  if (typeof document === 'undefined') return null;
  return document.querySelector(`meta[name="${STRIPE_PUBLISHABLE_KEY_META}"]`)?.getAttribute('content') || null;
}
