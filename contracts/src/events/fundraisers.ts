import { z } from 'zod';
import { defineEvent, isoInstant } from './define-event';

export const FundraiserCreated = defineEvent(
  'FundraiserCreated',
  z.object({
    fundraiserId: z.string().min(1),
    userId: z.string().min(1),
    charityId: z.string().min(1),
    shirtId: z.string().min(1),
    name: z.string().min(1),
    at: isoInstant,
  }),
);

export const DonationRecorded = defineEvent(
  'DonationRecorded',
  z.object({
    fundraiserId: z.string().min(1),
    donationId: z.string().min(1),
    amountCents: z.number().int().positive(),
    currency: z.literal('USD'),
    source: z.string().min(1),
    /** The client's Idempotency-Key, when it sent one: a retry with it records nothing new. */
    idempotencyKey: z.string().min(1).nullable(),
    at: isoInstant,
  }),
);

/** Written by the ingestor (or the embedded batcher) to `scans-p<partition>`. */
export const ScanRecorded = defineEvent(
  'ScanRecorded',
  z.object({ scanId: z.string().min(1), fundraiserId: z.string().min(1), at: isoInstant }),
);

/**
 * Appended by an ingestor when it takes over a partition's stream: the revision it bumps fences
 * off the previous owner, whose next append then fails its expected-revision check.
 */
export const PartitionClaimed = defineEvent(
  'PartitionClaimed',
  z.object({
    topic: z.string().min(1),
    partition: z.number().int().nonnegative(),
    memberId: z.string(),
    at: isoInstant,
  }),
);
