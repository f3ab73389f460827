import type { donationRoutes } from '@qrshirt/contracts';
import type { HandlersOf } from '../http/route-table';
import { unavailable } from '../http/route-table';
import type { RouteDeps } from '../route-deps';

/** The processors' webhooks (the generic one's, Stripe's), and the demo processor behind the demo widget. */
export function donationHandlers({
  donationWebhooks,
  stripeWebhooks,
  demoProcessor,
}: RouteDeps): HandlersOf<typeof donationRoutes> {
  return {
    async receiveDonationWebhook({ rawBody, req }) {
      return { status: 200, body: await donationWebhooks.receive({ headers: req.headers, body: rawBody }, req.log) };
    },
    receiveStripeWebhook: stripeWebhooks
      ? async ({ rawBody, req }) => ({
          status: 200,
          body: await stripeWebhooks.receive({ headers: req.headers, body: rawBody }, req.log),
        })
      : unavailable('Stripe is not configured here (STRIPE_WEBHOOK_SECRET and the other Stripe settings are unset)'),
    createDemoDonation: demoProcessor
      ? async ({ body }) => ({ status: 202, body: await demoProcessor.charge(body) })
      : unavailable('The demo processor is off (DEMO_PROCESSOR=false): donations go through the real processor'),
  };
}
