/*
 * Where streams that more than one feature reads by name begin: fulfilment finds the waitlist's
 * entries and removals by these, the lookup-key migration renames signups and reservations, and
 * the records of what was done with an address are first found in signups and ledgers.
 */

/** Every waitlist stream starts with this (the admin's list and CSV read them by it). */
export const WAITLIST_STREAM_PREFIX = 'waitlist-';
/** A waitlist entry's removal: `waitlist-removal-<entryId>`. */
export const WAITLIST_REMOVAL_STREAM_PREFIX = 'waitlist-removal-';
/** An address's reservation: `email-<lookup key>`. */
export const EMAIL_RESERVATION_STREAM_PREFIX = 'email-';
/** A donation's ledger, as the processor's word makes it: `processor-donation-<donationId>`. */
export const DONATION_LEDGER_STREAM_PREFIX = 'processor-donation-';
