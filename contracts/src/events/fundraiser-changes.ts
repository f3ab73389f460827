import { z } from 'zod';
import { defineEvent, isoInstant } from './define-event';

/**
 * What an owner changes of their shirt (PATCH /api/fundraisers/{id}), each in the fundraiser's
 * stream. A change of charity names the charity it leaves, so the figures of the time stay with
 * the charity they were raised for without any reader having to look back.
 */
export const FundraiserCharityChanged = defineEvent(
  'FundraiserCharityChanged',
  z.object({
    fundraiserId: z.string().min(1),
    charityId: z.string().min(1),
    previousCharityId: z.string().min(1),
    at: isoInstant,
  }),
);

export const FundraiserRenamed = defineEvent(
  'FundraiserRenamed',
  z.object({ fundraiserId: z.string().min(1), name: z.string().min(1), at: isoInstant }),
);

/** Cents, so goals add up exactly like the money raised; null: the owner removed the goal. */
export const FundraiserGoalSet = defineEvent(
  'FundraiserGoalSet',
  z.object({
    fundraiserId: z.string().min(1),
    goalCents: z.number().int().nonnegative().nullable(),
    at: isoInstant,
  }),
);
