import { z } from 'zod';
import { defineEvent, isoInstant } from './define-event';

/*
 * A charity's Stripe connected account, in `charity-payout-account-<charityId>`: donations to it
 * are destination charges, paid to that account by Stripe rather than by hand.
 */

/** The platform opened a connected account for the charity (Stripe's `accounts.create`). */
export const CharityPayoutAccountOpened = defineEvent(
  'CharityPayoutAccountOpened',
  z.object({
    charityId: z.string().min(1),
    /** Stripe's `acct_…` */
    accountId: z.string().min(1),
    /** Opened with live keys; a test account takes no live money. */
    live: z.boolean(),
    at: isoInstant,
  }),
);

/**
 * What Stripe said of the account (`account.updated`): whether it may take charges and be paid
 * out. `at` is Stripe's date of the event, so an older word delivered late changes nothing.
 */
export const CharityPayoutAccountUpdated = defineEvent(
  'CharityPayoutAccountUpdated',
  z.object({
    charityId: z.string().min(1),
    accountId: z.string().min(1),
    live: z.boolean(),
    chargesEnabled: z.boolean(),
    payoutsEnabled: z.boolean(),
    detailsSubmitted: z.boolean(),
    at: isoInstant,
  }),
);
