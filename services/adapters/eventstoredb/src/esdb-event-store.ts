import type {
  AllStreamResolvedEvent,
  AppendExpectedRevision,
  EventStoreDBClient,
  Position,
  ReadPosition,
} from '@eventstore/db-client';
import { globalPositionOf, isSystemEvent, readPositionAfter, readPositionBefore, toStoredEvent } from './esdb-events';
import { startEsdbSubscription } from './esdb-subscription';
import { appendEncoded, DEFAULT_MAX_APPEND_BYTES } from './esdb-append';
import { encodeEvents } from './esdb-encoding';
import {
  type EventStore,
  type ExpectedRevision,
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

/** Events read from $all per request; our own filters apply on top, client side. */
const READ_PAGE_SIZE = 500;

export function createEventStoreDbEventStore(options: EventStoreDbEventStoreOptions): EventStore {
  // Loaded on first use: the gRPC client adds about 0.3 s to the start-up of every process that
  // imports core, and the embedded mode never needs it.
  const connection = import('@eventstore/db-client').then((esdb) => ({
    esdb,
    client: esdb.EventStoreDBClient.connectionString(options.connectionString),
  }));
  // Failures surface on the first call; unused, they must not crash the process.
  connection.catch(() => {});
  const subscriptions = new Set<Subscription>();
  let closed = false;

  async function open(): Promise<{ esdb: EsdbModule; client: EventStoreDBClient }> {
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
      const { client } = await open();
      const types = readOptions.eventTypes === undefined ? undefined : new Set(readOptions.eventTypes);
      const maxCount = readOptions.maxCount ?? Number.POSITIVE_INFINITY;
      const events: StoredEvent[] = [];
      if (types?.size === 0 || maxCount <= 0) return events;
      // Forward reads include the position they start from: anything not beyond it is skipped.
      let seenUpTo = readOptions.after ?? 0;
      for (;;) {
        const page = await readAllPage(client, readPositionAfter(seenUpTo), 'forwards');
        for (const resolved of page) {
          const event = resolved.event;
          if (!event) continue;
          const globalPosition = globalPositionOf(event, resolved.commitPosition);
          if (globalPosition <= seenUpTo) continue;
          seenUpTo = globalPosition;
          if (isSystemEvent(event) || (types !== undefined && !types.has(event.type))) continue;
          events.push(toStoredEvent(event, globalPosition));
          if (events.length >= maxCount) return events;
        }
        if (page.length < READ_PAGE_SIZE) return events;
      }
    },

    /**
     * Reading $all filtered client side: the client's reads take no server-side filter (only its
     * subscriptions do), so a narrow filter over a long log reads much of it. Fine for browsing.
     */
    async readFiltered(filter) {
      const { client } = await open();
      const types = filter.eventTypes === undefined ? undefined : new Set(filter.eventTypes);
      const events: StoredEvent[] = [];
      if (types?.size === 0 || filter.maxCount <= 0) return events;
      const backwards = filter.direction === 'backwards';
      const from = filter.recordedFrom?.getTime() ?? Number.NEGATIVE_INFINITY;
      const before = filter.recordedBefore?.getTime() ?? Number.POSITIVE_INFINITY;
      const matches = (event: StoredEvent) =>
        (filter.streamPrefix === undefined || event.streamName.startsWith(filter.streamPrefix)) &&
        (types === undefined || types.has(event.type)) &&
        event.recordedAt.getTime() >= from &&
        event.recordedAt.getTime() < before;
      // Positions already passed, in reading order: a page may start at the event it resumes from.
      let seen = filter.cursor ?? (backwards ? Number.POSITIVE_INFINITY : 0);
      const direction = backwards ? 'backwards' : 'forwards';
      let page = await readAllPage(
        client,
        backwards ? readPositionBefore(filter.cursor) : readPositionAfter(seen),
        direction,
      );
      for (;;) {
        for (const resolved of page) {
          const event = resolved.event;
          if (!event) continue;
          const globalPosition = globalPositionOf(event, resolved.commitPosition);
          if (backwards ? globalPosition >= seen : globalPosition <= seen) continue;
          seen = globalPosition;
          if (isSystemEvent(event)) continue;
          const stored = toStoredEvent(event, globalPosition);
          if (!matches(stored)) continue;
          events.push(stored);
          if (events.length >= filter.maxCount) return events;
        }
        const last = page.at(-1)?.event?.position;
        if (page.length < READ_PAGE_SIZE || !last) return events;
        page = await readAllPage(client, backwards ? last : readPositionAfter(seen), direction);
      }
    },

    subscribe(subscribeOptions) {
      if (closed) throw new Error('The event store is closed');
      let stopRequested = false;
      // The client loads asynchronously; this subscription starts once it has.
      const started = connection.then(({ esdb, client }) => {
        if (stopRequested) return undefined;
        const types = subscribeOptions.eventTypes;
        const filter =
          types === undefined
            ? esdb.excludeSystemEvents()
            : esdb.eventTypeFilter({ regex: `^(?:${types.map(escapeRegExp).join('|')})$` });
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
      const { client } = await open();
      let before: ReadPosition = 'end';
      for (;;) {
        const page = await readAllPage(client, before, 'backwards');
        for (const resolved of page) {
          const event = resolved.event;
          if (event && !isSystemEvent(event)) return globalPositionOf(event, resolved.commitPosition);
        }
        const oldest = page.at(-1)?.event?.position;
        if (page.length < READ_PAGE_SIZE || !oldest) return 0;
        before = oldest satisfies Position;
      }
    },

    async close() {
      if (closed) return;
      closed = true;
      await Promise.all([...subscriptions].map((subscription) => subscription.stop()));
      const { client } = await connection.catch(() => ({ client: undefined }));
      await client?.dispose();
    },
  };
}

async function readAllPage(
  client: EventStoreDBClient,
  fromPosition: ReadPosition,
  direction: 'forwards' | 'backwards',
): Promise<AllStreamResolvedEvent[]> {
  const page: AllStreamResolvedEvent[] = [];
  for await (const resolved of client.readAll({ fromPosition, direction, maxCount: READ_PAGE_SIZE })) {
    page.push(resolved);
  }
  return page;
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
