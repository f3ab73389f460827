import { type EventData, eventMetadata } from '@qrshirt/contracts';
import { describe, expect, it, vi } from 'vitest';
import { createInMemoryEventStore } from '../../src/kit/in-memory-event-store';
import { createLegacyWaitlists } from '../../src/waitlist/legacy-waitlists';
import { lookupKeys, T0 } from './fixtures';

/** A signup as logs from before per-signup streams hold it: on the shirt's one list. */
const oldEntry = (entryId: string, email: string, size = 'M'): EventData<'WaitlistJoined'> => ({
  entryId,
  shirtId: 'scan-me',
  name: 'Ada',
  email,
  size,
  charityId: 'water',
  at: T0,
});

const append = (store: ReturnType<typeof createInMemoryEventStore>, ...entries: EventData<'WaitlistJoined'>[]) =>
  store.appendToStream(
    'waitlist-scan-me',
    entries.map((data) => ({ type: 'WaitlistJoined', data, metadata: eventMetadata('WaitlistJoined') })),
  );

describe("the shirts' waitlists of old logs", () => {
  it('finds the first entry of a signup in any spelling of the address, and nothing for another signup', async () => {
    const eventStore = createInMemoryEventStore();
    await append(eventStore, oldEntry('e-1', 'Ada@Example.org'), oldEntry('e-2', 'bob@example.org'));
    const legacy = createLegacyWaitlists({ eventStore, lookupKeys });

    expect(await legacy.find('scan-me', { email: ' ada@example.ORG', size: 'M', charityId: 'water' })).toBe('e-1');
    expect(await legacy.find('scan-me', { email: 'ada@example.org', size: 'L', charityId: 'water' })).toBeNull();
    expect(await legacy.find('other-shirt', { email: 'ada@example.org', size: 'M', charityId: 'water' })).toBeNull();
  });

  it('reads each list once, then only what an older gateway may have appended since', async () => {
    const eventStore = createInMemoryEventStore();
    await append(eventStore, oldEntry('e-1', 'ada@example.org'));
    const readStream = vi.spyOn(eventStore, 'readStream');
    const legacy = createLegacyWaitlists({ eventStore, lookupKeys });

    await legacy.find('scan-me', { email: 'ada@example.org', size: 'M', charityId: 'water' });
    await append(eventStore, oldEntry('e-2', 'bob@example.org'));
    expect(await legacy.find('scan-me', { email: 'bob@example.org', size: 'M', charityId: 'water' })).toBe('e-2');

    expect(readStream.mock.calls.map(([, options]) => options?.fromRevision)).toEqual([0, 1]);
  });

  it('reads a list once for joins that arrive while it is being read', async () => {
    const eventStore = createInMemoryEventStore();
    await append(eventStore, oldEntry('e-1', 'ada@example.org'), oldEntry('e-2', 'bob@example.org'));
    const readStream = vi.spyOn(eventStore, 'readStream');
    const legacy = createLegacyWaitlists({ eventStore, lookupKeys });

    const found = await Promise.all([
      legacy.find('scan-me', { email: 'ada@example.org', size: 'M', charityId: 'water' }),
      legacy.find('scan-me', { email: 'bob@example.org', size: 'M', charityId: 'water' }),
      legacy.find('scan-me', { email: 'cy@example.org', size: 'M', charityId: 'water' }),
    ]);
    expect(found).toEqual(['e-1', 'e-2', null]);
    expect(readStream).toHaveBeenCalledTimes(1);
  });
});
