import type { AllStreamResolvedEvent, AppendExpectedRevision, EventStoreDBClient, Filter } from '@eventstore/db-client';
import { type EsdbClient, openEsdbClient } from './esdb-client';
import { globalPositionOf, isSystemEvent, readPositionAfter, readPositionBefore, toStoredEvent } from './esdb-events';
import { startEsdbSubscription } from './esdb-subscription';
import { appendEncoded, DEFAULT_MAX_APPEND_BYTES } from './esdb-append';
import { encodeEvents } from './esdb-encoding';
import {
  type EventStore,
  type ExpectedRevision,
  type FilteredPage,
  type StoredEvent,
  type Subscription,
  assertValidExpectedRevision,
} from '@qrshirt/core';

export interface EventStoreDbEventStoreOptions {
  /** e.g. `esdb://localhost:2113?tls=false` */
  connectionString: string;
  /** The server's `MaxAppendSize`; larger appends are split (default 1 MiB, the server's default). */
  maxAppendBytes?: number;
}

type EsdbModule = typeof import('@eventstore/db-client');

/** Events one filtered read of $all asks the server for, at most. */
const READ_PAGE_SIZE = 500;

/**
 * Events one `readFiltered` call examines, at most. The server cannot filter by time, nor by
 * stream prefix and type at once, so a time range far from where reading starts is found by
 * reading what lies between. 2,000 events are four full pages (a few MB of the largest
 * `PageViewed`s, well under a second): enough to fill a page in the common case, while a far
 * range costs the browser a few "next" clicks instead of one request reading most of the log.
 */
const FILTERED_READ_SCAN_LIMIT = 2_000;

export function createEventStoreDbEventStore(options: EventStoreDbEventStoreOptions): EventStore {
  // Loaded on first use: the gRPC client adds about 0.3 s to the start-up of every process that
  // imports core, and the embedded mode never needs it.
  const connection = import('@eventstore/db-client').then((esdb) => ({
    esdb,
    ...openEsdbClient(esdb, options.connectionString),
  }));
  // Failures surface on the first call; unused, they must not crash the process.
  connection.catch(() => {});
  const subscriptions = new Set<Subscription>();
  let closed = false;

  async function open(): Promise<{ esdb: EsdbModule } & EsdbClient> {
    if (closed) throw new Error('The event store is closed');
    return connection;
  }

  async function readStreamEvents(
    client: EventStoreDBClient,
    esdb: EsdbModule,
    streamName: string,
    fromRevision: number,
    maxCount: number | undefined,
  ): Promise<StoredEvent[]> {
    if (maxCount === 0) return [];
    const events: StoredEvent[] = [];
    try {
      const read = client.readStream(streamName, {
        fromRevision: BigInt(fromRevision),
        ...(maxCount !== undefined && { maxCount }),
      });
      for await (const resolved of read) {
        const event = resolved.event;
        if (event) events.push(toStoredEvent(event, globalPositionOf(event, resolved.commitPosition)));
      }
    } catch (err) {
      if (err instanceof esdb.StreamNotFoundError) return [];
      throw err;
    }
    return events;
  }

  return {
    // Commit positions: byte offsets in the server's transaction log.
    positionUnit: 'bytes',
    async appendToStream(streamName, events, appendOptions) {
      const expected = appendOptions?.expectedRevision ?? 'any';
      if (events.length === 0) throw new Error(`Append to ${streamName}: no events given`);
      assertValidExpectedRevision(expected);
      const encoded = encodeEvents(streamName, events);
      const { esdb, client } = await open();
      return appendEncoded(
        {
          client,
          jsonEvent: (event) => esdb.jsonEvent(event),
          toRevision: (revision) => toEsdbRevision(esdb, revision),
          maxAppendBytes: options.maxAppendBytes ?? DEFAULT_MAX_APPEND_BYTES,
        },
        streamName,
        encoded,
        expected,
      );
    },

    async readStream(streamName, readOptions) {
      const { esdb, client } = await open();
      return readStreamEvents(client, esdb, streamName, readOptions?.fromRevision ?? 0, readOptions?.maxCount);
    },

    async readLastEvent(streamName) {
      const { esdb, client } = await open();
      try {
        for await (const resolved of client.readStream(streamName, {
          direction: esdb.BACKWARDS,
          fromRevision: esdb.END,
          maxCount: 1,
        })) {
          if (resolved.event)
            return toStoredEvent(resolved.event, globalPositionOf(resolved.event, resolved.commitPosition));
        }
      } catch (err) {
        if (!(err instanceof esdb.StreamNotFoundError)) throw err;
      }
      return undefined;
    },

    async readAll(readOptions = {}) {
      const { esdb, readAllFiltered } = await open();
      const types = readOptions.eventTypes;
      const maxCount = readOptions.maxCount ?? Number.POSITIVE_INFINITY;
      if (types?.length === 0 || maxCount <= 0) return [];
      const typeSet = types === undefined ? undefined : new Set(types);
      // The server applies the whole filter, so this reads only what it returns: no limit needed.
      const { events } = await readMatching(readAllFiltered, {
        filter: serverFilter(esdb, { eventTypes: types }),
        direction: 'forwards',
        cursor: readOptions.after,
        maxCount,
        scanLimit: Number.POSITIVE_INFINITY,
        verdict: (event) => (typeSet === undefined || typeSet.has(event.type) ? 'take' : 'skip'),
      });
      return events;
    },

    /**
     * The server filters by event type or else by stream prefix (one of them: it takes one
     * filter); the other, and the time range, apply here to what it returns. Events are recorded
     * in time order, so reading stops at the far end of the time range; the near end is found by
     * reading towards it, at most FILTERED_READ_SCAN_LIMIT events a call.
     */
    async readFiltered(filter) {
      const { esdb, readAllFiltered } = await open();
      const types = filter.eventTypes === undefined ? undefined : new Set(filter.eventTypes);
      if (types?.size === 0 || filter.maxCount <= 0) return { events: [], next: undefined };
      const backwards = filter.direction === 'backwards';
      const from = filter.recordedFrom?.getTime() ?? Number.NEGATIVE_INFINITY;
      const before = filter.recordedBefore?.getTime() ?? Number.POSITIVE_INFINITY;
      return readMatching(readAllFiltered, {
        filter: serverFilter(esdb, filter),
        direction: backwards ? 'backwards' : 'forwards',
        cursor: filter.cursor,
        maxCount: filter.maxCount,
        scanLimit: FILTERED_READ_SCAN_LIMIT,
        verdict(event) {
          const at = event.recordedAt.getTime();
          if (backwards ? at < from : at >= before) return 'stop';
          if (at < from || at >= before) return 'skip';
          if (filter.streamPrefix !== undefined && !event.streamName.startsWith(filter.streamPrefix)) return 'skip';
          return types === undefined || types.has(event.type) ? 'take' : 'skip';
        },
      });
    },

    subscribe(subscribeOptions) {
      if (closed) throw new Error('The event store is closed');
      let stopRequested = false;
      // The client loads asynchronously; this subscription starts once it has.
      const started = connection.then(({ esdb, client }) => {
        if (stopRequested) return undefined;
        const types = subscribeOptions.eventTypes;
        const filter = types === undefined ? esdb.excludeSystemEvents() : eventTypesFilter(esdb, types);
        return startEsdbSubscription(client, filter, subscribeOptions);
      });
      const subscription: Subscription = {
        done: started.then((running) => running?.done),
        async stop() {
          stopRequested = true;
          await started.then(
            (running) => running?.stop(),
            () => {},
          );
        },
      };
      subscriptions.add(subscription);
      const forget = (): void => void subscriptions.delete(subscription);
      subscription.done.then(forget, forget);
      return subscription;
    },

    async headPosition() {
      const { esdb, readAllFiltered } = await open();
      const {
        events: [newest],
      } = await readMatching(readAllFiltered, {
        filter: serverFilter(esdb, {}),
        direction: 'backwards',
        cursor: undefined,
        maxCount: 1,
        scanLimit: Number.POSITIVE_INFINITY,
        verdict: () => 'take',
      });
      return newest?.globalPosition ?? 0;
    },

    async close() {
      if (closed) return;
      closed = true;
      await Promise.all([...subscriptions].map((subscription) => subscription.stop()));
      const opened = await connection.catch(() => undefined);
      await opened?.close();
    },
  };
}

type Verdict = 'take' | 'skip' | 'stop';

/**
 * Our events of $all that the server's filter lets through and `verdict` takes, from the cursor
 * (exclusive) in either direction, asking the server for a page at a time. Reading stops after
 * `scanLimit` events; `next` is then the last position examined, so the caller can read on.
 */
async function readMatching(
  readAllFiltered: EsdbClient['readAllFiltered'],
  options: {
    filter: Filter;
    direction: 'forwards' | 'backwards';
    cursor: number | undefined;
    maxCount: number;
    scanLimit: number;
    verdict(this: void, event: StoredEvent): Verdict;
  },
): Promise<FilteredPage> {
  const { filter, direction, maxCount, scanLimit, verdict } = options;
  const backwards = direction === 'backwards';
  const events: StoredEvent[] = [];
  const full = (): FilteredPage => ({ events, next: events.at(-1)!.globalPosition });
  const ended = (): FilteredPage => ({ events, next: undefined });
  // Positions already passed, in reading order: a read includes the position it starts from.
  let seen = options.cursor ?? (backwards ? Number.POSITIVE_INFINITY : 0);
  let fromPosition = backwards ? readPositionBefore(options.cursor) : readPositionAfter(seen);
  let examined = 0;
  for (let firstPage = true; ; firstPage = false) {
    // The first page asks for no more than could be taken; a later one is needed only because
    // events were skipped, so it asks for a full page. One more than that either way: the first
    // event may be the one the read resumes from.
    const wanted = firstPage ? Math.min(READ_PAGE_SIZE, maxCount) : READ_PAGE_SIZE;
    const want = Math.min(wanted, scanLimit - examined) + 1;
    const page: AllStreamResolvedEvent[] = [];
    for await (const resolved of readAllFiltered({ fromPosition, direction, maxCount: want, filter })) {
      page.push(resolved);
    }
    for (const resolved of page) {
      const event = resolved.event;
      if (!event) continue;
      const globalPosition = globalPositionOf(event, resolved.commitPosition);
      if (backwards ? globalPosition >= seen : globalPosition <= seen) continue;
      seen = globalPosition;
      examined++;
      if (isSystemEvent(event)) continue;
      const stored = toStoredEvent(event, globalPosition);
      const decision = verdict(stored);
      if (decision === 'stop') return ended();
      if (decision === 'skip') continue;
      events.push(stored);
      if (events.length >= maxCount) return full();
    }
    const last = page.at(-1)?.event?.position;
    if (page.length < want || !last) return ended();
    if (examined >= scanLimit) return { events, next: seen };
    fromPosition = last;
  }
}

/** The one filter the server applies: by event type when types are given, else by stream prefix. */
function serverFilter(esdb: EsdbModule, wanted: { eventTypes?: readonly string[]; streamPrefix?: string }): Filter {
  if (wanted.eventTypes !== undefined) return eventTypesFilter(esdb, wanted.eventTypes);
  if (wanted.streamPrefix !== undefined) return esdb.streamNameFilter({ prefixes: [wanted.streamPrefix] });
  return esdb.excludeSystemEvents();
}

function eventTypesFilter(esdb: EsdbModule, types: readonly string[]): Filter {
  return esdb.eventTypeFilter({ regex: `^(?:${types.map(escapeRegExp).join('|')})$` });
}

function toEsdbRevision(esdb: EsdbModule, expected: ExpectedRevision): AppendExpectedRevision {
  switch (expected) {
    case 'any':
      return esdb.ANY;
    case 'no_stream':
      return esdb.NO_STREAM;
    case 'stream_exists':
      return esdb.STREAM_EXISTS;
    default:
      return BigInt(expected);
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
