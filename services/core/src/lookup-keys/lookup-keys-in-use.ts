import { eventMetadata } from '@qrshirt/contracts';
import type { Clock } from '../kit/clock';
import type { EventStore } from '../kit/event-store';
import { readAllFiltered } from '../kit/read-all-filtered';
import { keyedStreamName, LOOKUP_STREAM_OPENERS, LOOKUP_STREAM_PREFIXES } from './keyed-names';
import type { LookupKeys } from '../kit/lookup-keys';

/** Where `LookupKeysInUse` is recorded. */
export const LOOKUP_KEYS_STREAM = 'lookup-keys';

export const MIGRATE_LOOKUP_KEYS = 'npm run migrate-lookup-keys';

/** The log and this process's lookup keys do not go together: starting would find nobody. */
export class LookupKeysError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LookupKeysError';
  }
}

const OTHER_SECRET =
  "LOOKUP_KEY_SECRET is not the secret the event log's names were made with (a secret generated into " +
  "DATA_DIR/lookup-key-secret counts as one): with it no account's address and no waitlist signup would be " +
  'found. Set the secret used before; it must never change';

const UNKEYED_NAMES =
  'The event log still names addresses and waitlist signups by unkeyed hashes, which this version no longer ' +
  `reads. Stop every process (gateways, ingestor, projector), run \`${MIGRATE_LOOKUP_KEYS}\` in the same ` +
  'environment, then start again';

/**
 * Whether the log records that its names are lookup keys, made with these keys' secret; throws
 * LookupKeysError when they were made with another.
 */
export async function lookupKeysRecorded(
  eventStore: EventStore,
  keys: Pick<LookupKeys, 'fingerprint'>,
): Promise<boolean> {
  const recorded = await eventStore.readStream(LOOKUP_KEYS_STREAM);
  if (recorded.some(({ data }) => (data as { fingerprint?: unknown }).fingerprint !== keys.fingerprint)) {
    throw new LookupKeysError(OTHER_SECRET);
  }
  return recorded.length > 0;
}

/** Records that every name in the log is a lookup key made with these keys' secret. */
export async function recordLookupKeysInUse(
  eventStore: EventStore,
  keys: Pick<LookupKeys, 'fingerprint'>,
  via: 'migration' | 'start',
  clock: Clock,
): Promise<void> {
  await eventStore.appendToStream(
    LOOKUP_KEYS_STREAM,
    [
      {
        type: 'LookupKeysInUse',
        data: { fingerprint: keys.fingerprint, via, at: clock().toISOString() },
        metadata: eventMetadata('LookupKeysInUse'),
      },
    ],
    { expectedRevision: 'any' },
  );
}

/**
 * Before a process finds anything by its lookup keys: the log must name nothing by an unkeyed
 * hash, or a taken address would look free (open to a second account) and a repeated signup new.
 * Once the log records that its names are keyed this is one stream read; until then every
 * reservation and signup is looked at (one pass, at the first start of this version), and a log
 * holding none of the old names (a new one) gets the record. Throws LookupKeysError saying what
 * to do otherwise.
 */
export async function ensureLookupKeysInUse({
  eventStore,
  keys,
  clock,
}: {
  eventStore: EventStore;
  keys: Pick<LookupKeys, 'fromUnkeyed' | 'fingerprint'>;
  clock: Clock;
}): Promise<void> {
  if (await lookupKeysRecorded(eventStore, keys)) return;
  for (const prefix of LOOKUP_STREAM_PREFIXES) {
    for await (const event of readAllFiltered(eventStore, prefix, LOOKUP_STREAM_OPENERS)) {
      if (keyedStreamName(keys, event.streamName) !== null) throw new LookupKeysError(UNKEYED_NAMES);
    }
  }
  await recordLookupKeysInUse(eventStore, keys, 'start', clock);
}
