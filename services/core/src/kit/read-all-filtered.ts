import type { EventStore, StoredEvent } from './event-store';

const PAGE = 1000;

/**
 * Every event of the filter, oldest first, a page at a time: a page may hold fewer events than
 * asked, or none, and still have a next (EventStoreDB examines a bounded stretch of the log per
 * request), so reading stops only when there is no next.
 */
export async function* readAllFiltered(
  eventStore: EventStore,
  streamPrefix: string,
  eventTypes: readonly string[],
): AsyncGenerator<StoredEvent> {
  let cursor: number | undefined;
  for (;;) {
    const page = await eventStore.readFiltered({
      streamPrefix,
      eventTypes,
      ...(cursor !== undefined && { cursor }),
      maxCount: PAGE,
    });
    yield* page.events;
    if (page.next === undefined) return;
    cursor = page.next;
  }
}
