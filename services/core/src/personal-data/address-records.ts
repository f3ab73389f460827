import { eventMetadata, readEvent } from '@qrshirt/contracts';
import type { Clock } from '../kit/clock';
import type { EventStore, StoredEvent } from '../kit/event-store';
import type { LookupKeys } from '../kit/lookup-keys';
import { readAllFiltered } from '../kit/read-all-filtered';
import { DONATION_LEDGER_STREAM_PREFIX, WAITLIST_STREAM_PREFIX } from '../kit/stream-prefixes';
import type { AddressRecord, AddressRecords } from '../ports/address-records';

/** Where an address's records are noted: `address-records-<lookup key>`, which names no address. */
export const addressRecordsStreamName = (keys: Pick<LookupKeys, 'email'>, address: string): string =>
  `address-records-${keys.email(address)}`;

/** Notes written at once while a start notes an older log's records. */
const BACKFILL_BATCH = 500;

/** Where `AddressRecordsComplete` is recorded. */
const COMPLETE_STREAM = 'address-records-complete';

const sameRecord = (a: AddressRecord, b: AddressRecord): boolean =>
  a.kind === 'waitlist-signup'
    ? b.kind === 'waitlist-signup' && a.entryId === b.entryId && a.stream === b.stream
    : b.kind === 'donation-receipt' && a.donationId === b.donationId;

interface AddressRecordDeps {
  eventStore: EventStore;
  lookupKeys: Pick<LookupKeys, 'email'>;
  clock: Clock;
}

export function createAddressRecords({ eventStore, lookupKeys, clock }: AddressRecordDeps): AddressRecords {
  async function of(address: string): Promise<AddressRecord[]> {
    const records: AddressRecord[] = [];
    for (const stored of await eventStore.readStream(addressRecordsStreamName(lookupKeys, address))) {
      const event = readEvent(stored.type, stored.data, stored.metadata);
      if (event.type !== 'AddressRecordNoted') continue;
      const { at: _at, ...record } = event.data;
      if (!records.some((known) => sameRecord(known, record))) records.push(record);
    }
    return records;
  }

  return {
    of,
    async note(address, record) {
      // Two requests noting one record at once both append it; readers take it once.
      if ((await of(address)).some((known) => sameRecord(known, record))) return;
      await eventStore.appendToStream(
        addressRecordsStreamName(lookupKeys, address),
        [
          {
            type: 'AddressRecordNoted',
            data: { ...record, at: clock().toISOString() },
            metadata: eventMetadata('AddressRecordNoted'),
          },
        ],
        { expectedRevision: 'any' },
      );
    },
  };
}

/**
 * Before a gateway exports or erases what a person made with their address: every signup and
 * receipt address written before records were noted gets its note, in one pass over those
 * events at the first start of this version, after which the log records that none is missing
 * and this is one stream read. Erased addresses are passed over: nothing is left to find by them.
 * `eventStore` must reveal personal fields, the addresses being keyed in clear.
 */
export async function ensureAddressRecords({ eventStore, lookupKeys, clock }: AddressRecordDeps): Promise<void> {
  if ((await eventStore.readStream(COMPLETE_STREAM)).length > 0) return;
  const records = createAddressRecords({ eventStore, lookupKeys, clock });
  /** Notes the records of one type's events, many at once: the store commits them together. */
  async function noteAll(prefix: string, type: string, recordOf: (stored: StoredEvent) => AddressRecord | null) {
    let noted = 0;
    let batch: Promise<void>[] = [];
    for await (const stored of readAllFiltered(eventStore, prefix, [type])) {
      const email = (stored.data as { email?: unknown }).email;
      const record = recordOf(stored);
      if (typeof email !== 'string' || !record) continue;
      batch.push(records.note(email, record));
      noted++;
      if (batch.length === BACKFILL_BATCH) {
        await Promise.all(batch);
        batch = [];
      }
    }
    await Promise.all(batch);
    return noted;
  }
  const idOf = (stored: StoredEvent, key: string): string | null => {
    const id = (stored.data as Record<string, unknown>)[key];
    return typeof id === 'string' ? id : null;
  };
  const signups = await noteAll(WAITLIST_STREAM_PREFIX, 'WaitlistJoined', (stored) => {
    const entryId = idOf(stored, 'entryId');
    return entryId === null ? null : { kind: 'waitlist-signup', entryId, stream: stored.streamName };
  });
  const receipts = await noteAll(DONATION_LEDGER_STREAM_PREFIX, 'DonationReceiptAddressed', (stored) => {
    const donationId = idOf(stored, 'donationId');
    return donationId === null ? null : { kind: 'donation-receipt', donationId };
  });
  await eventStore.appendToStream(
    COMPLETE_STREAM,
    [
      {
        type: 'AddressRecordsComplete',
        data: { signups, receipts, at: clock().toISOString() },
        metadata: eventMetadata('AddressRecordsComplete'),
      },
    ],
    { expectedRevision: 'any' },
  );
}
