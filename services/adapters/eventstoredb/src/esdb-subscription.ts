import type { Readable } from 'node:stream';
import type { AllStreamResolvedEvent, AllStreamSubscription, EventStoreDBClient, Filter } from '@eventstore/db-client';
import { globalPositionOf, isSystemEvent, readPositionAfter, toStoredEvent } from './esdb-events';
import type { StoredEvent, SubscribeOptions, Subscription } from '@qrshirt/core';

const DEFAULT_BATCH_SIZE = 500;
const FIRST_RETRY_DELAY_MS = 100;
const MAX_RETRY_DELAY_MS = 5_000;
/** Errors a new connection would only meet again: the subscription ends with them. */
const FATAL_ERROR_TYPES = new Set(['access-denied', 'invalid-argument', 'unsupported']);

/**
 * A catch-up subscription over $all that survives dropped connections: it resubscribes from the
 * last position handed to `onEvents` (the server may repeat that position; it is skipped), with
 * a growing delay between attempts.
 */
export function startEsdbSubscription(
  client: EventStoreDBClient,
  filter: Filter,
  options: SubscribeOptions,
): Subscription {
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  const types = options.eventTypes === undefined ? undefined : new Set(options.eventTypes);
  let position = options.after ?? 0;
  let stopped = false;
  let current: AllStreamSubscription | undefined;
  let wakeFromRetryDelay = (): void => {};
  let subscriberFailure: { error: unknown } | undefined;

  /** Follows one server subscription until it ends, drops (rejects), or onEvents fails. */
  async function follow(subscription: AllStreamSubscription): Promise<void> {
    for await (const batch of batches<AllStreamResolvedEvent>(subscription, batchSize)) {
      const events: StoredEvent[] = [];
      let seenUpTo = position;
      for (const resolved of batch) {
        const event = resolved.event;
        if (!event) continue;
        const globalPosition = globalPositionOf(event, resolved.commitPosition);
        if (globalPosition <= seenUpTo) continue;
        seenUpTo = globalPosition;
        if (isSystemEvent(event) || (types !== undefined && !types.has(event.type))) continue;
        events.push(toStoredEvent(event, globalPosition));
      }
      if (events.length > 0) {
        try {
          await options.onEvents(events);
        } catch (error) {
          subscriberFailure = { error };
          return;
        }
      }
      position = seenUpTo;
      if (stopped) return;
    }
  }

  async function run(): Promise<void> {
    let retryDelay = FIRST_RETRY_DELAY_MS;
    while (!stopped) {
      const subscription = client.subscribeToAll(
        { fromPosition: readPositionAfter(position), filter },
        // Lets a whole batch wait in the buffer; beyond it the gRPC stream is paused.
        { highWaterMark: batchSize },
      );
      current = subscription;
      const positionBefore = position;
      let dropped: Error | undefined;
      try {
        await follow(subscription);
      } catch (error) {
        dropped = error instanceof Error ? error : new Error(String(error));
      } finally {
        current = undefined;
        closeQuietly(subscription);
      }
      if (subscriberFailure) throw subscriberFailure.error;
      if (stopped) break;
      if (dropped !== undefined && FATAL_ERROR_TYPES.has(errorType(dropped))) throw dropped;
      if (position > positionBefore) retryDelay = FIRST_RETRY_DELAY_MS;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, retryDelay);
        wakeFromRetryDelay = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      retryDelay = Math.min(retryDelay * 2, MAX_RETRY_DELAY_MS);
    }
  }

  const done = run();
  return {
    done,
    async stop() {
      stopped = true;
      wakeFromRetryDelay();
      if (current) closeQuietly(current);
      await done.catch(() => {});
    },
  };
}

function errorType(error: unknown): string {
  return typeof error === 'object' && error !== null && 'type' in error ? String(error.type) : '';
}

function closeQuietly(subscription: AllStreamSubscription): void {
  subscription.unsubscribe().catch(() => {});
  subscription.destroy();
}

/** Everything already buffered, up to `max`, as one array; waits only for the first item. */
async function* batches<T>(readable: Readable, max: number): AsyncGenerator<T[]> {
  const items = readable[Symbol.asyncIterator]() as AsyncIterator<T>;
  for (;;) {
    const first = await items.next();
    if (first.done) return;
    const batch = [first.value];
    while (batch.length < max && readable.readableLength > 0) {
      const next = await items.next();
      if (next.done) break;
      batch.push(next.value);
    }
    yield batch;
  }
}
