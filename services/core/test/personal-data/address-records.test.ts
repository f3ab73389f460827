import { eventMetadata, type EventData, type EventType } from '@qrshirt/contracts';
import { countingLogReads } from '@qrshirt/test-support';
import { describe, expect, it } from 'vitest';
import {
  createAddressRecords,
  createInMemoryEventStore,
  createLookupKeys,
  ensureAddressRecords,
  type NewEvent,
} from '../../src/index';

/*
 * The records of what was made with an address: noted once each under the address in any
 * spelling, and, for a log written before notes, found once at a start and never looked for again.
 */

const at = '2024-06-01T09:00:00.000Z';
const lookupKeys = createLookupKeys('the-lookup-key-secret-of-these-tests');
const clock = () => new Date(at);
const event = <T extends EventType>(type: T, data: EventData<T>): NewEvent => ({
  type,
  data,
  metadata: eventMetadata(type),
});

const signup = (entryId: string, email: string | null): NewEvent =>
  event('WaitlistJoined', {
    entryId,
    shirtId: 'shirt-1',
    name: 'Ada',
    email,
    size: 'M',
    charityId: 'charity-1',
    removeTokenHash: 'hash',
    at,
  });

describe('the records of an address', () => {
  it('are noted once each, found by any spelling of the address, and name no address', async () => {
    const eventStore = createInMemoryEventStore();
    const records = createAddressRecords({ eventStore, lookupKeys, clock });
    const joined = { kind: 'waitlist-signup', entryId: 'entry-1', stream: 'waitlist-shirt-1.k-1' } as const;
    await records.note('Ada@Example.org', joined);
    await records.note('ada@example.org ', joined);
    await records.note('ADA@example.org', { kind: 'donation-receipt', donationId: 'pi_1' });
    await records.note('someone.else@example.org', { kind: 'donation-receipt', donationId: 'pi_2' });

    expect(await records.of('ada@EXAMPLE.org')).toEqual([joined, { kind: 'donation-receipt', donationId: 'pi_1' }]);
    const log = await eventStore.readAll();
    expect(log.map(({ type }) => type)).toEqual(Array(3).fill('AddressRecordNoted'));
    expect(JSON.stringify(log).toLowerCase()).not.toContain('example.org');
    expect(new Set(log.map(({ streamName }) => streamName)).size).toBe(2);
  });

  it('of a log written before notes are found at the first start, erased ones passed over, then never looked for', async () => {
    const counted = countingLogReads(createInMemoryEventStore());
    const { store: eventStore } = counted;
    await eventStore.appendToStream('waitlist-shirt-1.k-a', [signup('entry-a', 'ada@example.org')]);
    await eventStore.appendToStream('waitlist-shirt-1', [signup('entry-legacy', 'Ada@Example.org')]);
    await eventStore.appendToStream('waitlist-shirt-1.k-b', [signup('entry-erased', null)]);
    await eventStore.appendToStream('processor-donation-pi_1', [
      event('DonationReceiptAddressed', { donationId: 'pi_1', email: 'ada@example.org', at }),
    ]);

    await ensureAddressRecords({ eventStore, lookupKeys, clock });
    const records = createAddressRecords({ eventStore, lookupKeys, clock });
    expect(await records.of('ada@example.org')).toEqual([
      { kind: 'waitlist-signup', entryId: 'entry-a', stream: 'waitlist-shirt-1.k-a' },
      { kind: 'waitlist-signup', entryId: 'entry-legacy', stream: 'waitlist-shirt-1' },
      { kind: 'donation-receipt', donationId: 'pi_1' },
    ]);
    const complete = await eventStore.readStream('address-records-complete');
    expect(complete.map(({ data }) => data)).toEqual([{ signups: 2, receipts: 1, at }]);

    counted.reads.length = 0;
    await ensureAddressRecords({ eventStore, lookupKeys, clock });
    expect(counted.reads).toEqual([]);
    expect(await eventStore.readStream('address-records-complete')).toHaveLength(1);
  });
});
