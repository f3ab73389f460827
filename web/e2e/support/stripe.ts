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
 * card put it, and completes when the test says, as Stripe.js calls `onComplete`. It asks of the
 * page's Content-Security-Policy what Stripe.js does: its hidden controller frame from
 * js.stripe.com, and a Checkout frame from checkout.stripe.com where the card mounts it (a refused
 * one is a console error, which the tests count).
 */
const STRIPE_JS_STAND_IN = `(() => {
  const record = { keys: [], clientSecrets: [], complete: null };
  const frame = (src, parent) => {
    const element = document.createElement('iframe');
    element.src = src;
    element.title = 'Stripe (stand-in)';
    element.style.cssText = 'border: 0; width: 0; height: 0;';
    parent.append(element);
    return element;
  };
  function Stripe(publishableKey) {
    record.keys.push(publishableKey);
    frame('https://js.stripe.com/v3/controller-stand-in.html', document.body);
    return {
      async createEmbeddedCheckoutPage({ fetchClientSecret, onComplete }) {
        const clientSecret = await fetchClientSecret();
        record.clientSecrets.push(clientSecret);
        record.complete = onComplete;
        let shown = [];
        return {
          mount(element) {
            const text = document.createElement('p');
            text.textContent = 'Stripe Checkout (stand-in)';
            text.dataset.clientSecret = clientSecret;
            element.append(text);
            shown = [text, frame('https://checkout.stripe.com/c/pay/' + clientSecret.split('_secret_')[0], element)];
          },
          unmount() { shown.forEach((node) => node.remove()); },
          destroy() { shown.forEach((node) => node.remove()); },
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
    const frame = route.request().resourceType() === 'document';
    return frame
      ? route.fulfill({ status: 200, contentType: 'text/html', body: '<title>Stripe.js controller (stand-in)</title>' })
      : route.fulfill({ status: 200, contentType: 'text/javascript', body: STRIPE_JS_STAND_IN });
  });
  await context.route('https://checkout.stripe.com/**', (route) =>
    route.fulfill({ status: 200, contentType: 'text/html', body: '<title>Stripe Checkout (stand-in)</title>' }),
  );
  return requested;
}
