import { z } from 'zod';
import { defineEvent, isoInstant } from './define-event';

/**
 * As stored. Deliberately looser than the request schemas (which take https websites and https or
 * on-site logos only): events written before those rules must stay readable.
 */
export const charityFields = z.object({
  name: z.string().min(1),
  mission: z.string().min(1),
  website_url: z.url(),
  logo_url: z.string().min(1).optional(),
  /** The name it is registered under, which donors' receipts give (absent: `name`). */
  legalName: z.string().min(1).optional(),
  /** Its tax id (a US EIN), which donors' receipts give; absent on charities created before receipts. */
  taxId: z.string().min(1).optional(),
});

/** A member's charity waits for an admin's review; an admin's (and the seeded catalogue) is approved at once. */
export const charityStatusAtCreation = z.enum(['pending', 'approved']);

export const CharityCreated = defineEvent(
  'CharityCreated',
  charityFields.extend({
    charityId: z.string().min(1),
    createdBy: z.string().nullable(),
    status: charityStatusAtCreation,
    at: isoInstant,
  }),
  {
    version: 2,
    // Version 1 had no review: every charity was in the shop as soon as it was created.
    upcasters: { 1: (data) => Object.assign({}, data, { status: 'approved' }) },
  },
);

export const CharityUpdated = defineEvent(
  'CharityUpdated',
  charityFields.partial().extend({ charityId: z.string().min(1), at: isoInstant }),
);

/** An admin let a pending (or earlier rejected) charity into the shop. */
export const CharityApproved = defineEvent(
  'CharityApproved',
  z.object({ charityId: z.string().min(1), approvedBy: z.string().min(1), at: isoInstant }),
);

/** An admin kept a pending charity out of the shop, saying why. */
export const CharityRejected = defineEvent(
  'CharityRejected',
  z.object({
    charityId: z.string().min(1),
    rejectedBy: z.string().min(1),
    reason: z.string().min(1),
    at: isoInstant,
  }),
);
