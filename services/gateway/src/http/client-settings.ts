import { ANONYMOUS_AUTH_META, STRIPE_PUBLISHABLE_KEY_META } from '@qrshirt/contracts';

/** What the pages tell their client at start: one build serves every setting. */
interface ClientSettings {
  /** ANONYMOUS_AUTH: whether the client starts anonymous sessions. */
  anonymousAuth: boolean;
  /** Stripe's publishable key when Stripe takes donations (the donation card's embedded Checkout). */
  stripePublishableKey: string | null;
}

/** Whether a page can go out as built: every setting is the one a page without tags means. */
export function pagesAsBuilt({ anonymousAuth, stripePublishableKey }: ClientSettings): boolean {
  return anonymousAuth && stripePublishableKey === null;
}

/**
 * A page as the gateway serves it: told in meta tags its client reads at start what differs from
 * a page without them (ANONYMOUS_AUTH=false, Stripe's publishable key). The key needs no escaping:
 * the configuration accepts only pk_live_ or pk_test_ and word characters.
 */
export function withClientSettings(html: string, settings: ClientSettings): string {
  if (pagesAsBuilt(settings)) return html;
  const tags = [
    settings.anonymousAuth ? '' : `<meta name="${ANONYMOUS_AUTH_META}" content="false">`,
    settings.stripePublishableKey === null
      ? ''
      : `<meta name="${STRIPE_PUBLISHABLE_KEY_META}" content="${settings.stripePublishableKey}">`,
  ].join('');
  return html.replace(/<head[^>]*>/i, (head) => `${head}${tags}`);
}
