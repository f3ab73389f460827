import { createHmac } from 'node:crypto';
import type { BrowserContext } from 'playwright-core';

/**
 * Stripe's signature of a webhook delivery, as Stripe documents it (a Stripe-Signature of the
 * time and the HMAC-SHA256 of "time.body" under the endpoint's secret), made here rather than by
 * the gateway's own package, which then has to agree with it.
 */
export function stripeSignature(body: string, secret: string): string {
  const time = Math.floor(Date.now() / 1000);
  return `t=${time},v1=${createHmac('sha256', secret).update(`${time}.${body}`).digest('hex')}`;
}

/**
 * Stripe.js cannot load here: the page's request for it (js.stripe.com) gets this stand-in, which
 * records the key and each embedded Checkout's client secret, shows which one it mounted where the
 * card put it, and completes when the test says, as Stripe.js calls `onComplete`.
 */
const STRIPE_JS_STAND_IN = `(() => {
  const record = { keys: [], clientSecrets: [], complete: null };
  function Stripe(publishableKey) {
    record.keys.push(publishableKey);
    return {
      async createEmbeddedCheckoutPage({ fetchClientSecret, onComplete }) {
        const clientSecret = await fetchClientSecret();
        record.clientSecrets.push(clientSecret);
        record.complete = onComplete;
        let shown = null;
        return {
          mount(element) {
            shown = document.createElement('p');
            shown.textContent = 'Stripe Checkout (stand-in)';
            shown.dataset.clientSecret = clientSecret;
            element.append(shown);
          },
          unmount() { shown?.remove(); },
          destroy() { shown?.remove(); },
        };
      },
    };
  }
  Stripe.version = 'endive';
  window.Stripe = Stripe;
  window.stripeStandIn = record;
})();`;

export async function withStripeJsStandIn(context: BrowserContext): Promise<string[]> {
  const requested: string[] = [];
  await context.route('https://js.stripe.com/**', (route) => {
    requested.push(route.request().url());
    return route.fulfill({ status: 200, contentType: 'text/javascript', body: STRIPE_JS_STAND_IN });
  });
  return requested;
}
