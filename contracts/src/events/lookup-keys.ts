import { z } from 'zod';
import { defineEvent, isoInstant } from './define-event';

/**
 * Appended to `lookup-keys` once every name in the log that finds personal data (an address's
 * reservation, a waitlist signup) is a lookup key: by `npm run migrate-lookup-keys` when it
 * finished (`migration`), or by a gateway that found no name of the older, unkeyed form (`start`).
 * `fingerprint` tells which secret made the keys, never the secret: a process started with another
 * one would find nothing by its keys, and refuses to run.
 */
export const LookupKeysInUse = defineEvent(
  'LookupKeysInUse',
  z.object({ fingerprint: z.string().min(1), via: z.enum(['migration', 'start']), at: isoInstant }),
);
