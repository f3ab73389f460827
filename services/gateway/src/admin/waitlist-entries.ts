import { type AdminWaitlistEntriesPage, type AdminWaitlistEntry, readEvent } from '@qrshirt/contracts';
import {
  entryStatus,
  type EventStore,
  type FulfilmentUseCases,
  type StoredEvent,
  WAITLIST_STREAM_PREFIX,
  type CatalogQueries,
} from '@qrshirt/core';

type Statuses = Awaited<ReturnType<FulfilmentUseCases['statuses']>>;

/** Every waitlist stream: one per signup (`waitlist-<shirtId>.<key>`), and each shirt's whole list in old logs. */
const WAITLIST_STREAMS = WAITLIST_STREAM_PREFIX;

/**
 * Waitlist entries with names and emails (null once their person removed the entry, which erased
 * them), for admins only. Read from the event log rather than a
 * read model, so personal data is never copied anywhere else (the public read model holds counts).
 * Newest first, paged by log position.
 */
export function createWaitlistEntries({
  eventStore,
  catalog,
  fulfilment,
}: {
  eventStore: EventStore;
  catalog: CatalogQueries;
  fulfilment: Pick<FulfilmentUseCases, 'statuses'>;
}) {
  async function names(): Promise<{
    shirts: Map<string, string>;
    charities: Map<string, string>;
    statuses: Statuses;
  }> {
    // Statuses from the log too, so an entry fulfilled a moment ago never shows as waiting.
    const [shirts, charities, statuses] = await Promise.all([
      catalog.listShirts(),
      catalog.listCharities(),
      fulfilment.statuses(),
    ]);
    return {
      shirts: new Map(shirts.map((shirt) => [shirt.id, shirt.name])),
      charities: new Map(charities.map((charity) => [charity.id, charity.name])),
      statuses,
    };
  }

  function toEntries(events: readonly StoredEvent[], named: Awaited<ReturnType<typeof names>>): AdminWaitlistEntry[] {
    return events.flatMap((stored) => {
      let event;
      try {
        event = readEvent(stored.type, stored.data, stored.metadata);
      } catch {
        // Unreadable as its contract says: the projections pass over it too (and log it).
        return [];
      }
      if (event.type !== 'WaitlistJoined') return [];
      const { entryId, name, email, size, charityId, shirtId, at } = event.data;
      return [
        {
          id: entryId,
          name,
          email,
          size,
          charityId,
          charityName: named.charities.get(charityId) ?? null,
          shirtId,
          shirtName: named.shirts.get(shirtId) ?? null,
          joinedAt: at,
          status: entryStatus(event.data, named.statuses),
          fundraiserId: named.statuses.get(entryId)?.fundraiserId ?? null,
        },
      ];
    });
  }

  async function read(
    after: number | undefined,
    limit: number,
    given?: Awaited<ReturnType<typeof names>>,
  ): Promise<AdminWaitlistEntriesPage> {
    const [{ events, next }, named] = await Promise.all([
      eventStore.readFiltered({
        streamPrefix: WAITLIST_STREAMS,
        eventTypes: ['WaitlistJoined'],
        direction: 'backwards',
        ...(after !== undefined && { cursor: after }),
        maxCount: limit,
      }),
      given ?? names(),
    ]);
    return { entries: toEntries(events, named), next: next ?? null };
  }

  return {
    page: (options: { after?: number; limit: number }) => read(options.after, options.limit),
    /** Every entry, newest first, a page at a time (the CSV export streams them). */
    async *all(pageSize = 1000): AsyncGenerator<AdminWaitlistEntry[]> {
      let after: number | undefined;
      // The names and statuses once for the whole export, not once a page.
      const named = await names();
      do {
        const page = await read(after, pageSize, named);
        yield page.entries;
        after = page.next ?? undefined;
      } while (after !== undefined);
    },
  };
}
