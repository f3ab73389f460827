import { z } from 'zod';
import { defineEvent, isoInstant } from './define-event';

/**
 * Appended to `address-records-<lookup key of the address>` before a record made with that
 * address is written: a waitlist signup (its entry and stream) or a donation whose receipts go
 * there. A person's account finds what was done with their address by reading this one stream,
 * never the whole log. It names the record, never the address; a record whose own write did not
 * follow (the request failed in between) is looked for there, found missing and passed over.
 */
export const AddressRecordNoted = defineEvent(
  'AddressRecordNoted',
  z.discriminatedUnion('kind', [
    z.object({
      kind: z.literal('waitlist-signup'),
      entryId: z.string().min(1),
      stream: z.string().min(1),
      at: isoInstant,
    }),
    z.object({ kind: z.literal('donation-receipt'), donationId: z.string().min(1), at: isoInstant }),
  ]),
);

/**
 * Appended to `address-records-complete` once every signup and receipt address the log held
 * before records were noted has been noted, by the first gateway of this version to start.
 */
export const AddressRecordsComplete = defineEvent(
  'AddressRecordsComplete',
  z.object({ signups: z.number().int().nonnegative(), receipts: z.number().int().nonnegative(), at: isoInstant }),
);
