import { randomUUID } from 'node:crypto';
import { createChangeSignal } from './change-signal';
import {
  type AppendResult,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type ReadFilteredOptions,
  type StoredEvent,
  fullyReadPage,
} from './event-store';
import { assertExpectedRevision, assertValidExpectedRevision } from './expected-revision';
import { createSubscriptionRegistry, type PolledBatch, startPollingSubscription } from './polling-subscription';

export interface InMemoryEventStoreOptions {
  /** Recording times, for tests that control the clock; the system clock by default. */
  now?: () => Date;
}

/** Subscriptions wake on every append; the poll only guards against a missed wake-up. */
const POLL_INTERVAL_MS = 1_000;
const DEFAULT_BATCH_SIZE = 500;

/**
 * The event store in a process's memory: it passes the same contract suite as SQLite and
 * EventStoreDB, and backs given-events specifications, where a test states the history it
 * starts from instead of building it through requests. Nothing survives the process.
 */
export function createInMemoryEventStore(options: InMemoryEventStoreOptions = {}): EventStore {
  const now = options.now ?? (() => new Date());
  // Positions are 1-based, as in SQLite: `log[position - 1]`.
  const log: StoredEvent[] = [];
  const streams = new Map<string, StoredEvent[]>();
  const changes = createChangeSignal();
  const subscriptions = createSubscriptionRegistry();
  let closed = false;

  function assertOpen(): void {
    if (closed) throw new Error('The event store is closed');
  }

  /** Stored events leave as copies, so a reader's changes cannot alter the log. */
  const copy = (event: StoredEvent): StoredEvent => structuredClone(event);

  /** A retry recognised where its first attempt wrote, as the other adapters do (see sqlite-appender.ts). */
  function earlierAppend(stream: StoredEvent[], ids: string[], expected: ExpectedRevision): AppendResult | undefined {
    const current = stream.length - 1;
    if (current < 0) return undefined;
    const first = expected === 'no_stream' ? 0 : typeof expected === 'number' ? expected + 1 : current - ids.length + 1;
    if (first < 0 || first > current || stream[first]!.id !== ids[0]) return undefined;
    const stored = stream.slice(first, first + ids.length);
    if (stored.length < ids.length || !stored.every((event, i) => event.id === ids[i])) {
      throw new Error('Only some of these event ids are already stored, or in another order');
    }
    return { nextExpectedRevision: first + ids.length - 1, lastGlobalPosition: stored.at(-1)!.globalPosition };
  }

  function append(streamName: string, events: readonly NewEvent[], expected: ExpectedRevision): AppendResult {
    if (events.length === 0) throw new Error(`Append to ${streamName}: no events given`);
    assertValidExpectedRevision(expected);
    const stream = streams.get(streamName) ?? [];
    const ids = events.map((event) => event.id ?? randomUUID());
    if (events.some((event) => event.id !== undefined)) {
      const retried = earlierAppend(stream, ids, expected);
      if (retried) return retried;
      if (new Set(ids).size !== ids.length) {
        throw new Error(`Append to ${streamName}: the same event id appears twice in the call`);
      }
    }
    assertExpectedRevision(streamName, expected, stream.length === 0 ? undefined : stream.length - 1);
    // Serialised as the durable adapters store them: what cannot be JSON fails this call alone.
    const payloads = events.map((event) => ({
      data: JSON.parse(JSON.stringify(event.data) ?? 'null') as unknown,
      metadata:
        event.metadata === undefined ? {} : (JSON.parse(JSON.stringify(event.metadata)) as Record<string, unknown>),
    }));
    const recordedAt = now();
    const stored = events.map((event, i) => ({
      id: ids[i]!,
      streamName,
      revision: stream.length + i,
      globalPosition: log.length + i + 1,
      type: event.type,
      data: payloads[i]!.data,
      metadata: payloads[i]!.metadata,
      recordedAt: new Date(recordedAt),
    }));
    log.push(...stored);
    stream.push(...stored);
    streams.set(streamName, stream);
    changes.notify();
    return { nextExpectedRevision: stream.length - 1, lastGlobalPosition: log.length };
  }

  function matches(event: StoredEvent, filter: ReadFilteredOptions, types: Set<string> | undefined): boolean {
    return (
      (filter.streamPrefix === undefined || event.streamName.startsWith(filter.streamPrefix)) &&
      (types === undefined || types.has(event.type)) &&
      (filter.recordedFrom === undefined || event.recordedAt >= filter.recordedFrom) &&
      (filter.recordedBefore === undefined || event.recordedAt < filter.recordedBefore)
    );
  }

  function readAfter(after: number, maxCount: number, types: Set<string> | undefined): PolledBatch {
    const events: StoredEvent[] = [];
    let position = after;
    while (position < log.length && events.length < maxCount) {
      const event = log[position]!;
      position += 1;
      if (types === undefined || types.has(event.type)) events.push(copy(event));
    }
    return { events, scannedTo: position };
  }

  const typeSet = (types: readonly string[] | undefined) => (types === undefined ? undefined : new Set(types));

  return {
    positionUnit: 'events',
    async appendToStream(streamName, events, appendOptions) {
      assertOpen();
      return append(streamName, events, appendOptions?.expectedRevision ?? 'any');
    },

    async readStream(streamName, readOptions) {
      assertOpen();
      const from = readOptions?.fromRevision ?? 0;
      const stream = streams.get(streamName) ?? [];
      const end = readOptions?.maxCount === undefined ? undefined : from + readOptions.maxCount;
      return stream.slice(from, end).map(copy);
    },

    async readLastEvent(streamName) {
      assertOpen();
      const last = streams.get(streamName)?.at(-1);
      return last && copy(last);
    },

    async readAll(readOptions = {}) {
      assertOpen();
      return readAfter(readOptions.after ?? 0, readOptions.maxCount ?? Infinity, typeSet(readOptions.eventTypes))
        .events;
    },

    async readFiltered(filter) {
      assertOpen();
      const types = typeSet(filter.eventTypes);
      const backwards = filter.direction === 'backwards';
      const page: StoredEvent[] = [];
      let index = backwards ? (filter.cursor ?? log.length + 1) - 2 : (filter.cursor ?? 0);
      while (index >= 0 && index < log.length && page.length < filter.maxCount) {
        const event = log[index]!;
        if (matches(event, filter, types)) page.push(copy(event));
        index += backwards ? -1 : 1;
      }
      return fullyReadPage(page, filter.maxCount);
    },

    subscribe(subscribeOptions) {
      assertOpen();
      const types = typeSet(subscribeOptions.eventTypes);
      return subscriptions.track(
        startPollingSubscription({
          after: subscribeOptions.after ?? 0,
          batchSize: subscribeOptions.batchSize ?? DEFAULT_BATCH_SIZE,
          pollIntervalMs: POLL_INTERVAL_MS,
          onEvents: subscribeOptions.onEvents,
          read: (after, maxCount) => readAfter(after, maxCount, types),
          changes,
        }),
      );
    },

    async headPosition() {
      assertOpen();
      return log.length;
    },

    async close() {
      if (closed) return;
      closed = true;
      await subscriptions.stopAll();
    },
  };
}
