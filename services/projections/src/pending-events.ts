import type { EventStore, StoredEvent } from '@qrshirt/core';

type FirstPending = (
  name: string,
  eventTypes: readonly string[],
  checkpoint: number | null,
) => Promise<StoredEvent | undefined>;

/**
 * The first event of a projection's types beyond its checkpoint. A checkpoint moves only when an
 * event of its types arrives, so a projection of rare types sits far behind the head with nothing
 * to do, and EventStoreDB's server scans everything after the position it is asked to read from.
 * A stretch found free of its types is remembered, so each look searches only what was appended
 * since the one before (a waiting caller looks every few milliseconds).
 */
export function createFirstPending(eventStore: EventStore): FirstPending {
  /** Per projection: no event of its types lies in (checkpoint, clearTo] for any checkpoint >= `since`. */
  const clear = new Map<string, { since: number; clearTo: number }>();
  return async (name, eventTypes, checkpoint) => {
    const at = checkpoint ?? 0;
    const known = clear.get(name);
    // A checkpoint that moved back (a blue/green switch) invalidates what was learnt.
    const from = known && at >= known.since ? Math.max(at, known.clearTo) : at;
    // Read before searching: everything up to it is searched, whatever is appended meanwhile.
    const head = await eventStore.headPosition();
    const [pending] = await eventStore.readAll({ ...(from > 0 && { after: from }), eventTypes, maxCount: 1 });
    if (!pending) clear.set(name, { since: at, clearTo: Math.max(from, head) });
    return pending;
  };
}
