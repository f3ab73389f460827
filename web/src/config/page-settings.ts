import { STRIPE_PLATFORM_FEE_META, STRIPE_PUBLISHABLE_KEY_META } from '@qrshirt/contracts';

const metaContent = (name: string): string | null =>
  typeof document === 'undefined'
    ? null
    : document.querySelector(`meta[name="${name}"]`)?.getAttribute('content') || null;

/**
 * Stripe's publishable key when the gateway's Stripe takes donations, from the meta tag its pages
 * carry (one build serves either setting); null without it: the configured donation widget.
 */
export function stripePublishableKey(): string | null {
  return metaContent(STRIPE_PUBLISHABLE_KEY_META);
}

/** The platform's share of a card donation in percent, which the gateway tells beside Stripe's key; 0 when it tells none. */
export function stripePlatformFeePercent(): number {
  const percent = Number(metaContent(STRIPE_PLATFORM_FEE_META) ?? 0);
  return Number.isFinite(percent) && percent > 0 ? percent : 0;
}
