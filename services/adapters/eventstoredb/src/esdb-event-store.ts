import type { AllStreamResolvedEvent, AppendStreamState, Filter, KurrentDBClient } from '@kurrent/kurrentdb-client';
import { collect, guardCalls, openKurrentClient, type Guarded, type KurrentModule } from './esdb-client';
import { appendAlone, closeClient } from './esdb-grpc';
import { globalPositionOf, isSystemEvent, readPositionAfter, readPositionBefore, toStoredEvent } from './esdb-events';
import { startEsdbSubscription } from './esdb-subscription';
import { appendEncoded, DEFAULT_MAX_APPEND_BYTES, DEFAULT_MAX_EVENT_BYTES } from './esdb-append';
import { encodeEvents } from './esdb-encoding';
import { errorType } from './esdb-errors';
import { truncations, type ReadTruncation } from './esdb-truncations';
import {
  type EventStore,
  type ExpectedRevision,
  type ReadAllOptions,
  type FilteredPage,
  type StoredEvent,
  type Subscription,
  assertValidExpectedRevision,
} from '@qrshirt/core';

export interface EventStoreDbEventStoreOptions {
  /** e.g. `esdb://localhost:2113?tls=false` */
  connectionString: string;
  /** The server's `MaxAppendSize` (default 256 MiB, KurrentDB 25.1's); larger appends are refused before any I/O. */
  maxAppendBytes?: number;
  /** The server's `MaxAppendEventSize` (default 16 MiB, KurrentDB 25.1's). */
  maxEventBytes?: number;
  /** How long a read, an append or the server-features check may take (default 10 s). */
  deadlineMs?: number;
  /**
   * The server keeps KurrentDB 25.1's secondary indexes (started with them on): a filtered read of
   * one event type reads that type's index (`$idx-et-<type>`) instead of scanning $all.
   */
  secondaryIndexes?: boolean;
}

const DEFAULT_DEADLINE_MS = 10_000;

/** Events one read of $all asks the server for, at most. */
const READ_PAGE_SIZE = 500;

/**
 * Events of $all one `readFiltered` call examines, at most. A filtered read of the server scans
 * until it has found its count or reached the end of $all, however long that is (its search
 * window only sizes its internal pages), and it cannot filter by time, nor by prefix and type at
 * once: so the filters apply here, to an unfiltered stretch of the log read a page at a time.
 * 2,000 events are four full pages (a few MB of the largest `PageViewed`s, well under a second):
 * a far or rare match costs a few "next" calls instead of one request reading the whole log.
 */
const FILTERED_READ_SCAN_LIMIT = 2_000;

/** The client, its store, and what the personal-data migration's log copies need of it. */
interface EventStoreDbConnection {
  store: EventStore;
  /**
   * `readAll` with the events `$tb` hides from stream reads still in, as $all holds them until a
   * scavenge: the migrations by copies find the streams they truncated before by them.
   */
  readAllWithTruncated(this: void, options: ReadAllOptions): Promise<StoredEvent[]>;
  /** The store's own client: the process opens no second one. */
  client(this: void): Promise<{ kdb: KurrentModule; client: KurrentDBClient }>;
  guard: Guarded;
}

export function createEventStoreDbEventStore(options: EventStoreDbEventStoreOptions): EventStore {
  return openEventStoreDb(options).store;
}

export function openEventStoreDb(options: EventStoreDbEventStoreOptions): EventStoreDbConnection {
  const deadlineMs = options.deadlineMs ?? DEFAULT_DEADLINE_MS;
  // Loaded on first use: the gRPC client adds about 0.3 s to the start-up of every process that
  // imports core, and the embedded mode never needs it.
  const connection = import('@kurrent/kurrentdb-client').then((kdb) => ({
    kdb,
    client: openKurrentClient(kdb, options.connectionString, deadlineMs),
  }));
  // Failures surface on the first call; unused, they must not crash the process.
  connection.catch(() => {});
  const guard = guardCalls(deadlineMs);
  const limits = {
    maxAppendBytes: options.maxAppendBytes ?? DEFAULT_MAX_APPEND_BYTES,
    maxEventBytes: options.maxEventBytes ?? DEFAULT_MAX_EVENT_BYTES,
  };
  const subscriptions = new Set<Subscription>();
  let closed = false;

  async function open(): Promise<{ kdb: KurrentModule; client: KurrentDBClient }> {
    if (closed) throw new Error('The event store is closed');
    return connection;
  }

  async function readStreamEvents(
    client: KurrentDBClient,
    streamName: string,
    read: { fromRevision: bigint | 'end'; direction: 'forwards' | 'backwards'; maxCount: number | undefined },
  ): Promise<StoredEvent[]> {
    if (read.maxCount === 0) return [];
    const events: StoredEvent[] = [];
    try {
      await guard.run(`a read of ${streamName}`, ({ signal, deadlineMs }) =>
        collect(
          client.readStream(streamName, {
            fromRevision: read.fromRevision,
            direction: read.direction,
            deadline: deadlineMs,
            ...(read.maxCount !== undefined && { maxCount: read.maxCount }),
          }),
          signal,
          (resolved) => {
            const event = resolved.event;
            if (event) events.push(toStoredEvent(event, globalPositionOf(event, resolved.commitPosition)));
            return true;
          },
        ),
      );
    } catch (err) {
      if (errorType(err) === 'stream-not-found') return [];
      throw err;
    }
    return events;
  }

  /** The newest position of $all, the server's own events included: where a checkpoint can be. */
  async function endOfLog(): Promise<number> {
    const { kdb, client } = await open();
    let end = 0;
    await guard.run('the read of the end of $all', ({ signal, deadlineMs }) =>
      collect(
        client.readAll({ fromPosition: kdb.END, direction: kdb.BACKWARDS, maxCount: 1, deadline: deadlineMs }),
        signal,
        (resolved) => {
          if (resolved.event) end = globalPositionOf(resolved.event, resolved.commitPosition);
          return false;
        },
      ),
    );
    return end;
  }

  /** One type's secondary index, when the server keeps them: an index read is one name per request. */
  function secondaryIndexOf(kdb: KurrentModule, types: readonly string[] | undefined): Filter | undefined {
    const [onlyType, ...otherTypes] = types ?? [];
    if (!options.secondaryIndexes || onlyType === undefined || otherTypes.length > 0) return undefined;
    return kdb.streamNameFilter({ prefixes: [`$idx-et-${onlyType}`] });
  }

  /** A stream's `$tb`, from its metadata stream (`$$<name>`). */
  const truncationOf =
    (client: KurrentDBClient): ReadTruncation =>
    async (streamName) => {
      const { metadata } = await guard.run(`the read of ${streamName}'s metadata`, ({ deadlineMs }) =>
        client.getStreamMetadata(streamName, { deadline: deadlineMs }),
      );
      const truncateBefore = metadata?.truncateBefore;
      return typeof truncateBefore === 'number' ? truncateBefore : 0;
    };

  /** Until a scavenge, $all still holds what `$tb` hides from the stream: left out here. */
  const visibleOf = (client: KurrentDBClient) => truncations(truncationOf(client)).visible;

  async function readAll(readOptions: ReadAllOptions, truncated: 'hidden' | 'kept'): Promise<StoredEvent[]> {
    const { kdb, client } = await open();
    const types = readOptions.eventTypes;
    const maxCount = readOptions.maxCount ?? Number.POSITIVE_INFINITY;
    if (types?.length === 0 || maxCount <= 0) return [];
    const typeSet = types === undefined ? undefined : new Set(types);
    // A filtered read of the server goes on until it has its count, however far: a rare type
    // made one request examine the whole log. So the types are filtered here, over pages of $all
    // (or of the type's secondary index) that each examine at most a page of events.
    const { events } = await readMatching(read(kdb, client), {
      filter: types === undefined ? kdb.excludeSystemEvents() : secondaryIndexOf(kdb, types),
      direction: 'forwards',
      cursor: readOptions.after,
      maxCount,
      scanLimit: Number.POSITIVE_INFINITY,
      wanted: (event) => typeSet === undefined || typeSet.has(event.type),
      visible: truncated === 'hidden' ? visibleOf(client) : async (taken) => taken,
    });
    return events;
  }

  const read =
    (kdb: KurrentModule, client: KurrentDBClient): ReadAllPage =>
    (what, request) =>
      guard.run(what, async ({ signal, deadlineMs }) => {
        const page: AllStreamResolvedEvent[] = [];
        const { filter, ...unfiltered } = request;
        const options = { ...unfiltered, deadline: deadlineMs };
        await collect(client.readAll(filter ? { ...options, filter } : options), signal, (resolved) => {
          page.push(resolved);
          return true;
        });
        return page;
      });

  const store: EventStore = {
    // Commit positions: byte offsets in the server's transaction log.
    positionUnit: 'bytes',
    async appendToStream(streamName, events, appendOptions) {
      const expected = appendOptions?.expectedRevision ?? 'any';
      if (events.length === 0) throw new Error(`Append to ${streamName}: no events given`);
      assertValidExpectedRevision(expected);
      const encoded = encodeEvents(streamName, events);
      const { kdb, client } = await open();
      return appendEncoded(
        {
          client,
          appendAlone: appendAlone(client),
          jsonEvent: (event) => kdb.jsonEvent(event),
          toState: (revision) => toStreamState(kdb, revision),
          limits,
          guard,
        },
        streamName,
        encoded,
        expected,
      );
    },

    async readStream(streamName, readOptions) {
      const { client } = await open();
      return readStreamEvents(client, streamName, {
        fromRevision: BigInt(readOptions?.fromRevision ?? 0),
        direction: 'forwards',
        maxCount: readOptions?.maxCount,
      });
    },

    async readLastEvent(streamName) {
      const { client } = await open();
      const [last] = await readStreamEvents(client, streamName, {
        fromRevision: 'end',
        direction: 'backwards',
        maxCount: 1,
      });
      return last;
    },

    readAll: (readOptions = {}) => readAll(readOptions, 'hidden'),

    /**
     * Reads a stretch of at most FILTERED_READ_SCAN_LIMIT events and applies every filter here:
     * of $all unfiltered, or of the type's secondary index when there is one type and the server
     * keeps them (an index read is one name per request). The time range filters, never ends the
     * read: a leader's clock can be behind the one before it, so events past the range can come
     * before events within it.
     */
    async readFiltered(filter) {
      const { kdb, client } = await open();
      if (filter.streamPrefix?.startsWith('$')) {
        // `$idx-…` names KurrentDB 25.1's secondary indexes, `$…` its own streams: never ours.
        throw new Error(`Stream prefix "${filter.streamPrefix}" names EventStoreDB's own streams or indexes`);
      }
      const types = filter.eventTypes === undefined ? undefined : new Set(filter.eventTypes);
      if (types?.size === 0 || filter.maxCount <= 0) return { events: [], next: undefined };
      const backwards = filter.direction === 'backwards';
      const from = filter.recordedFrom?.getTime() ?? Number.NEGATIVE_INFINITY;
      const before = filter.recordedBefore?.getTime() ?? Number.POSITIVE_INFINITY;
      return readMatching(read(kdb, client), {
        filter: secondaryIndexOf(kdb, filter.eventTypes),
        direction: backwards ? 'backwards' : 'forwards',
        cursor: filter.cursor,
        maxCount: filter.maxCount,
        scanLimit: FILTERED_READ_SCAN_LIMIT,
        wanted(event) {
          const at = event.recordedAt.getTime();
          if (at < from || at >= before) return false;
          if (filter.streamPrefix !== undefined && !event.streamName.startsWith(filter.streamPrefix)) return false;
          return types === undefined || types.has(event.type);
        },
        visible: visibleOf(client),
      });
    },

    subscribe(subscribeOptions) {
      if (closed) throw new Error('The event store is closed');
      let stopRequested = false;
      // The client loads asynchronously; this subscription starts once it has.
      const started = connection.then(({ kdb, client }) => {
        if (stopRequested) return undefined;
        // With the metadata events, which say when a stream's `$tb` changed. Types go as
        // prefixes, cheaper for the server than a regex; what else they let through (a longer
        // type) is left out by the subscription.
        const types = subscribeOptions.eventTypes;
        const filter =
          types === undefined
            ? kdb.eventTypeFilter({ regex: '^(?:[^$].*|\\$metadata)$' })
            : kdb.eventTypeFilter({ prefixes: [...types, '$metadata'] });
        return startEsdbSubscription(client, filter, subscribeOptions, {
          endOfLog,
          truncations: truncations(truncationOf(client)),
        });
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
      const { kdb, client } = await open();
      const {
        events: [newest],
      } = await readMatching(read(kdb, client), {
        filter: kdb.excludeSystemEvents(),
        direction: 'backwards',
        cursor: undefined,
        maxCount: 1,
        scanLimit: Number.POSITIVE_INFINITY,
        wanted: () => true,
        // The newest position, not an event to show: a truncated one marks it as well.
        visible: async (taken) => taken,
      });
      return newest?.globalPosition ?? 0;
    },

    async close() {
      if (closed) return;
      closed = true;
      guard.closeAll();
      await Promise.all([...subscriptions].map((subscription) => subscription.stop()));
      const opened = await connection.catch(() => undefined);
      if (opened) await closeClient(opened.client);
    },
  };

  return { store, readAllWithTruncated: (readOptions) => readAll(readOptions, 'kept'), client: open, guard };
}

type ReadAllPage = (
  what: string,
  request: {
    fromPosition: ReturnType<typeof readPositionAfter>;
    direction: 'forwards' | 'backwards';
    maxCount: number;
    filter: Filter | undefined;
  },
) => Promise<AllStreamResolvedEvent[]>;

/**
 * Our events of $all that the server's filter lets through and `wanted` accepts, from the cursor
 * (exclusive) in either direction, asking the server for a page at a time. Reading stops after
 * `scanLimit` events; `next` is then the last position examined, so the caller can read on.
 */
async function readMatching(
  readPage: ReadAllPage,
  options: {
    /** What the server filters; undefined reads every event, each counting towards `scanLimit`. */
    filter: Filter | undefined;
    direction: 'forwards' | 'backwards';
    cursor: number | undefined;
    maxCount: number;
    scanLimit: number;
    wanted(this: void, event: StoredEvent): boolean;
    /** What of the wanted events a read may show: the server may still hold hidden ones. */
    visible(this: void, taken: readonly StoredEvent[]): Promise<readonly StoredEvent[]>;
  },
): Promise<FilteredPage> {
  const { filter, direction, maxCount, scanLimit, wanted, visible } = options;
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
    const pageSize = firstPage ? Math.min(READ_PAGE_SIZE, maxCount) : READ_PAGE_SIZE;
    const want = Math.min(pageSize, scanLimit - examined) + 1;
    const page = await readPage(`a read of $all (${direction}, ${want} events)`, {
      fromPosition,
      direction,
      maxCount: want,
      filter,
    });
    const taken: StoredEvent[] = [];
    for (const resolved of page) {
      const event = resolved.event;
      if (!event) continue;
      const globalPosition = globalPositionOf(event, resolved.commitPosition);
      if (backwards ? globalPosition >= seen : globalPosition <= seen) continue;
      seen = globalPosition;
      examined++;
      if (isSystemEvent(event)) continue;
      const stored = toStoredEvent(event, globalPosition);
      if (wanted(stored)) taken.push(stored);
    }
    for (const stored of await visible(taken)) {
      events.push(stored);
      if (events.length >= maxCount) return full();
    }
    const last = page.at(-1)?.event?.position;
    if (page.length < want || !last) return ended();
    if (examined >= scanLimit) return { events, next: seen };
    fromPosition = last;
  }
}

function toStreamState(kdb: KurrentModule, expected: ExpectedRevision): AppendStreamState {
  if (expected === 'any') return kdb.ANY;
  if (expected === 'stream_exists') return kdb.STREAM_EXISTS;
  return expected === 'no_stream' ? kdb.NO_STREAM : BigInt(expected);
}
