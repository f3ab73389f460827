import type { donationRoutes } from '@qrshirt/contracts';
import type { HandlersOf } from '../http/route-table';
import { unavailable } from '../http/route-table';
import type { DemoProcessor } from './demo-processor';
import type { DonationWebhooks } from './donation-webhooks';
import type { StripeWebhooks } from './stripe-webhooks';

/** What the donation routes the gateway answers itself need; built by the composition root. */
export interface DonationRouteDeps {
  /** Verifies the donation processor's webhooks and hands them to the donation use cases. */
  donationWebhooks: DonationWebhooks;
  /** Why the generic webhook answers 404 here (Stripe takes the donations), or null. */
  genericWebhookOff: string | null;
  /** Verifies Stripe's webhooks and hands them to the donation use cases; null without Stripe. */
  stripeWebhooks: StripeWebhooks | null;
  /** The demo widget's processor; null when DEMO_PROCESSOR is off. */
  demoProcessor: DemoProcessor | null;
}

/** The processors' webhooks (the generic one's, Stripe's), and the demo processor behind the demo widget. */
export function donationHandlers({
  donationWebhooks,
  genericWebhookOff,
  stripeWebhooks,
  demoProcessor,
}: DonationRouteDeps): HandlersOf<typeof donationRoutes> {
  return {
    receiveDonationWebhook:
      genericWebhookOff === null
        ? async ({ rawBody, req }) => ({
            status: 200,
            body: await donationWebhooks.receive({ headers: req.headers, body: rawBody }, req.log),
          })
        : unavailable(genericWebhookOff, 404),
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
