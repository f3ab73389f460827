import { z } from 'zod';
import { defineEvent, isoInstant } from './define-event';

/**
 * A name or email sealed under the entry's key (`waitlistDataSubject`): null when read after its
 * person removed the entry, which destroyed that key.
 */
const erasable = z.string().min(1).nullable();

/** SHA-256 of the token of a removal link mailed with the event's mail; absent from older events. */
const removeTokenHash = z.string().min(1).optional();

export const WaitlistJoined = defineEvent(
  'WaitlistJoined',
  z.object({
    entryId: z.string().min(1),
    shirtId: z.string().min(1),
    name: erasable,
    email: erasable,
    size: z.string().min(1),
    charityId: z.string().min(1),
    /**
     * SHA-256 of the token mailed to the address to confirm the signup. Absent from entries that
     * joined before signups were confirmed: those count as confirmed.
     */
    confirmTokenHash: z.string().min(1).optional(),
    removeTokenHash,
    at: isoInstant,
  }),
);

/**
 * The same signup came again before it was confirmed: a new confirmation link was mailed (the
 * first mail may be lost). Links mailed earlier keep working.
 */
export const WaitlistConfirmationResent = defineEvent(
  'WaitlistConfirmationResent',
  z.object({ entryId: z.string().min(1), confirmTokenHash: z.string().min(1), removeTokenHash, at: isoInstant }),
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
    name: erasable,
    email: erasable,
    claimTokenHash: z.string().min(1),
    claimExpiresAt: isoInstant,
    removeTokenHash,
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
    removeTokenHash,
    at: isoInstant,
  }),
);

/**
 * The entry's person opened a removal link mailed to them (stream `waitlist-removal-<entryId>`):
 * the entry is off the list, and its name and email were erased with its key.
 */
export const WaitlistEntryRemoved = defineEvent(
  'WaitlistEntryRemoved',
  z.object({
    entryId: z.string().min(1),
    /** `account-closed`: made with the address of an account that was closed. Absent: a removal link. */
    by: z.enum(['account-closed']).optional(),
    at: isoInstant,
  }),
);
