import type { PayoutAccounts } from '@qrshirt/core';
import type { Logger } from 'pino';
import Stripe from 'stripe';
import { HttpError } from '../http/http-error';

/**
 * The donations feature's port to charities' accounts, filled with Stripe Connect: Express
 * accounts (Stripe hosts their onboarding and their dashboard; the platform pays Stripe's fees and
 * bears losses, as destination charges require), opened once per charity (Stripe's idempotency
 * key, so two people clicking at once get one account), each with a fresh onboarding link that
 * returns to the charity's Payouts page it was started from: the admin area's, or its submitter's
 * own. Without Stripe (null), every call is answered 503.
 */
export function createStripePayoutAccounts(
  stripe: { client: Stripe; live: boolean } | null,
  publicBaseUrl: string,
  log: Logger,
): PayoutAccounts {
  function configured(): Stripe {
    if (!stripe)
      throw new HttpError(503, 'Charities cannot be connected here: Stripe is not configured (STRIPE_SECRET_KEY)');
    return stripe.client;
  }

  async function asked<T>(what: string, charityId: string, call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      if (!(error instanceof Stripe.errors.StripeError)) throw error;
      log.error({ err: error, charityId }, `Stripe refused or did not answer: ${what}`);
      throw new HttpError(502, `Stripe could not ${what}: ${error.message}`);
    }
  }

  return {
    live: stripe?.live ?? false,

    async open({ charityId, name }) {
      const client = configured();
      const account = await asked("open the charity's account", charityId, () =>
        client.accounts.create(
          {
            country: 'US',
            business_type: 'non_profit',
            business_profile: { name },
            controller: {
              stripe_dashboard: { type: 'express' },
              fees: { payer: 'application' },
              losses: { payments: 'application' },
            },
            capabilities: { card_payments: { requested: true }, transfers: { requested: true } },
            // account.updated carries it back, naming the charity the account is for.
            metadata: { charityId },
          },
          { idempotencyKey: `payout-account:${charityId}` },
        ),
      );
      return { accountId: account.id };
    },

    async onboardingLink({ accountId, charityId, returnTo }) {
      const client = configured();
      const charity = encodeURIComponent(charityId);
      const page = `${publicBaseUrl}${returnTo === 'admin' ? `/admin/charities/${charity}` : `/charity/${charity}`}/payouts`;
      const link = await asked('start the onboarding', charityId, () =>
        client.accountLinks.create({
          account: accountId,
          type: 'account_onboarding',
          return_url: page,
          // A used or expired link lands here: the page asks for a fresh one.
          refresh_url: `${page}?expired=1`,
        }),
      );
      return { url: link.url };
    },
  };
}
