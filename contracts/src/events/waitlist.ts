import { z } from 'zod';
import { defineEvent, isoInstant } from './define-event';

export const WaitlistJoined = defineEvent(
  'WaitlistJoined',
  z.object({
    entryId: z.string().min(1),
    shirtId: z.string().min(1),
    name: z.string().min(1),
    email: z.string().min(1),
    size: z.string().min(1),
    charityId: z.string().min(1),
    /**
     * SHA-256 of the token mailed to the address to confirm the signup. Absent from entries that
     * joined before signups were confirmed: those count as confirmed.
     */
    confirmTokenHash: z.string().min(1).optional(),
    at: isoInstant,
  }),
);

/**
 * The same signup came again before it was confirmed: a new confirmation link was mailed (the
 * first mail may be lost). Links mailed earlier keep working.
 */
export const WaitlistConfirmationResent = defineEvent(
  'WaitlistConfirmationResent',
  z.object({ entryId: z.string().min(1), confirmTokenHash: z.string().min(1), at: isoInstant }),
);

/** The entry's person opened the confirmation link mailed to them: the address is theirs and wants the shirt. */
export const WaitlistEntryConfirmed = defineEvent(
  'WaitlistEntryConfirmed',
  z.object({ entryId: z.string().min(1), at: isoInstant }),
);

/**
 * An operator made a fundraiser for the entry (stream `fulfilment-<entryId>`) and mailed its
 * person a claim link. The link's token is kept only as its SHA-256 (`claimTokenHash`); the
 * entry's name and email are copied here so that claiming reads this one stream.
 */
export const WaitlistEntryFulfilled = defineEvent(
  'WaitlistEntryFulfilled',
  z.object({
    entryId: z.string().min(1),
    fundraiserId: z.string().min(1),
    shirtId: z.string().min(1),
    size: z.string().min(1),
    charityId: z.string().min(1),
    name: z.string().min(1),
    email: z.string().min(1),
    claimTokenHash: z.string().min(1),
    claimExpiresAt: isoInstant,
    at: isoInstant,
  }),
);

/**
 * An operator mailed the entry's person a new claim link (the first expired, or never arrived):
 * it replaces the earlier one, which stops working.
 */
export const ClaimLinkReissued = defineEvent(
  'ClaimLinkReissued',
  z.object({
    entryId: z.string().min(1),
    claimTokenHash: z.string().min(1),
    claimExpiresAt: isoInstant,
    at: isoInstant,
  }),
);
