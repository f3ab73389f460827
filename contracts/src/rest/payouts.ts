import { z } from 'zod';
import { defineRoutes, notFound } from '../route';
import { errorAnswer } from './errors';
import { idParams } from './ids';

/*
 * Charities paid through Stripe Connect: an admin, or the member who submitted the charity, opens
 * its connected account and goes through Stripe's onboarding; donations to it are then
 * destination charges.
 */

export const charityPayouts = z
  .object({
    /** Stripe's `acct_…`; null until someone starts the onboarding. */
    accountId: z.string().nullable(),
    /** Whether the account takes card donations (Stripe's `charges_enabled`). */
    chargesEnabled: z.boolean(),
    payoutsEnabled: z.boolean(),
    /** The charity finished Stripe's onboarding form (Stripe may still be verifying it). */
    detailsSubmitted: z.boolean(),
  })
  .meta({ id: 'CharityPayouts' });
export type CharityPayouts = z.infer<typeof charityPayouts>;

export const charityPayoutsOnboarding = z
  .object({ url: z.url().describe("Stripe's onboarding for the charity's account: single use, expires in minutes") })
  .meta({ id: 'CharityPayoutsOnboarding' });

const notApproved = { description: 'Unknown charity, or one not approved', schema: errorAnswer };
const notTheCreator = { description: 'Not the member who submitted the charity', schema: errorAnswer };

const stripeUnavailable = {
  502: { description: 'Stripe did not answer, or refused', schema: errorAnswer },
  503: { description: 'Stripe is not configured (STRIPE_SECRET_KEY and the others unset)', schema: errorAnswer },
};

export const charityPayoutRoutes = defineRoutes({
  getCharityPayouts: {
    method: 'get',
    path: '/api/admin/charities/{id}/payouts',
    summary: "The charity's Stripe connected account, as Stripe last described it",
    auth: 'admin',
    params: idParams,
    answers: {
      200: { description: 'Its account (accountId null: not opened yet)', schema: charityPayouts },
      404: notFound,
    },
  },
  startCharityPayouts: {
    method: 'post',
    path: '/api/admin/charities/{id}/payouts',
    summary:
      "Open the approved charity's Stripe connected account (once) and answer a fresh link to Stripe's onboarding for it",
    auth: 'admin',
    params: idParams,
    answers: {
      200: { description: 'Where to send the charity', schema: charityPayoutsOnboarding },
      404: notApproved,
      ...stripeUnavailable,
    },
  },
  getOwnCharityPayouts: {
    method: 'get',
    path: '/api/charity/{id}/payouts',
    summary: "The charity's Stripe connected account, to the member who submitted it",
    auth: 'user',
    params: idParams,
    answers: {
      200: { description: 'Its account (accountId null: not opened yet)', schema: charityPayouts },
      403: notTheCreator,
      404: notApproved,
    },
  },
  startOwnCharityPayouts: {
    method: 'post',
    path: '/api/charity/{id}/payouts',
    summary:
      "As the admins' start, for the member who submitted the approved charity: Stripe's onboarding returns to their own page",
    auth: 'user',
    params: idParams,
    answers: {
      200: { description: 'Where to go through the onboarding', schema: charityPayoutsOnboarding },
      403: notTheCreator,
      404: notApproved,
      ...stripeUnavailable,
    },
  },
});
