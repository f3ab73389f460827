import {
  ANONYMOUS_AUTH_META,
  DEMO_MODE_META,
  STRIPE_PLATFORM_FEE_META,
  STRIPE_PUBLISHABLE_KEY_META,
} from '@qrshirt/contracts';

/** What the pages' client learns from the gateway that serves them. */
export interface ClientSettings {
  /** ANONYMOUS_AUTH: whether the client starts anonymous sessions. */
  anonymousAuth: boolean;
  /** No live processor: owners see test money in place of money raised, labelled. */
  demoMode: boolean;
  /** Stripe's publishable key when Stripe takes donations (the donation card's embedded Checkout). */
  stripePublishableKey: string | null;
  /** With it, the platform's share of a donation in percent (absent: none), which the card tells donors. */
  stripePlatformFeePercent?: number;
}

/** Whether a page needs any meta tag: with the defaults it is served as built. */
export const changesPages = ({ anonymousAuth, demoMode, stripePublishableKey }: ClientSettings): boolean =>
  !anonymousAuth || demoMode || stripePublishableKey !== null;

/**
 * A page as the gateway serves it, with its settings in meta tags its client reads at start (one
 * build serves every setting): ANONYMOUS_AUTH=false, demo mode, Stripe's publishable key and the
 * platform's fee. Neither needs escaping: the configuration accepts only pk_live_ or pk_test_ and
 * word characters for the key, and a number for the fee.
 */
export function withClientSettings(html: string, settings: ClientSettings): string {
  if (!changesPages(settings)) return html;
  const tags = [
    ...(settings.anonymousAuth ? [] : [`<meta name="${ANONYMOUS_AUTH_META}" content="false">`]),
    ...(settings.demoMode ? [`<meta name="${DEMO_MODE_META}" content="true">`] : []),
    ...(settings.stripePublishableKey === null
      ? []
      : [
          `<meta name="${STRIPE_PUBLISHABLE_KEY_META}" content="${settings.stripePublishableKey}">`,
          `<meta name="${STRIPE_PLATFORM_FEE_META}" content="${settings.stripePlatformFeePercent ?? 0}">`,
        ]),
  ];
  return html.replace(/<head[^>]*>/i, (head) => `${head}${tags.join('')}`);
}
