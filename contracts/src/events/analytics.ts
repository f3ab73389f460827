import { z } from 'zod';
import { defineEvent, isoInstant } from './define-event';

/**
 * Analytics facts arrive in batches from the web client and land in `analytics-<yyyy-mm-dd>`.
 * Past the log's cap on anonymous writes (core's log-cap.ts) they are sampled: a stored one then
 * stands for `weight` of its kind, absent for one.
 */
const weight = z.number().int().min(2).optional();

export const PageViewed = defineEvent(
  'PageViewed',
  z.object({ path: z.string().min(1).max(2048), title: z.string().max(512).optional(), at: isoInstant, weight }),
);

export const ShirtClicked = defineEvent(
  'ShirtClicked',
  z.object({ shirt_id: z.string().min(1), shirt_name: z.string().max(512), at: isoInstant, weight }),
);

export const WaitlistSignup = defineEvent(
  'WaitlistSignup',
  z.object({
    charity_id: z.string().min(1),
    charity_name: z.string().max(512),
    size: z.string().min(1).max(32),
    shirt_id: z.string().min(1),
    shirt_name: z.string().max(512),
    at: isoInstant,
    weight,
  }),
);

export const DonationCompleted = defineEvent(
  'DonationCompleted',
  z.object({
    fundraiser_id: z.string().min(1),
    amount: z.number().positive(),
    currency: z.literal('USD'),
    at: isoInstant,
    weight,
  }),
);
