import type { Readable } from 'node:stream';
import type {
  AllStreamResolvedEvent,
  AllStreamSubscription,
  KurrentDBClient,
  Filter,
  Position,
  ReadPosition,
  RecordedEvent,
} from '@kurrent/kurrentdb-client';
import { globalPositionOf, isSystemEvent, readPositionAfter, toStoredEvent } from './esdb-events';
import { errorType, isFatalSubscriptionError } from './esdb-errors';
import type { Truncations } from './esdb-truncations';
import { SubscriptionRefusedError, type StoredEvent, type SubscribeOptions, type Subscription } from '@qrshirt/core';

const DEFAULT_BATCH_SIZE = 500;
const FIRST_RETRY_DELAY_MS = 100;
const MAX_RETRY_DELAY_MS = 5_000;

/**
 * A catch-up subscription over $all that survives dropped connections: it resubscribes from the
 * last position handed to `onEvents` (the server may repeat that position; it is skipped), with
 * a growing delay between attempts.
 */
export function startEsdbSubscription(
  client: KurrentDBClient,
  filter: Filter,
  options: SubscribeOptions,
  log: {
    endOfLog(this: void): Promise<number>;
    /** What `$tb` hides, kept for this subscription's life and told of each truncation it sees. */
    truncations: Truncations;
  },
): Subscription {
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  const types = options.eventTypes === undefined ? undefined : new Set(options.eventTypes);
  let position = options.after ?? 0;
  // The server's own position of the last event or checkpoint handled: an event's commit and
  // prepare positions differ inside a multi-event append, so a number alone cannot resume there.
  let resumeFrom: ReadPosition = readPositionAfter(position);
  let stopped = false;
  let current: AllStreamSubscription | undefined;
  let wakeFromRetryDelay = (): void => {};
  let subscriberFailure: { error: unknown } | undefined;

  function advanceTo(checkpoint: Position): void {
    const at = Number(checkpoint.commit);
    if (at <= position) return;
    position = at;
    resumeFrom = checkpoint;
  }

  /**
   * What one server subscription has received and handed on. A checkpoint is the server's word
   * that it has sent everything before it, on that subscription: a later one, resumed from the
   * last event handed on, has not sent those events again yet, so the checkpoint dies with it.
   */
  interface Received {
    /** True only while the subscription's next event is awaited with none held. */
    idle: boolean;
    /** A checkpoint seen while events before it were still on their way to `onEvents`. */
    pendingCheckpoint: Position | undefined;
  }

  /**
   * The server reports how far its filter has looked even when nothing matched, so a resumed
   * subscription does not scan the same stretch again. Taken at once only when every event sent
   * before it has been handled.
   */
  function onCheckpoint(subscription: AllStreamSubscription, received: Received, checkpoint: Position): void {
    if (received.idle && subscription.readableLength === 0) advanceTo(checkpoint);
    else received.pendingCheckpoint = checkpoint;
  }

  function learnTruncation(event: RecordedEvent): void {
    const truncateBefore = isObject(event.data) ? event.data.$tb : undefined;
    log.truncations.truncated(event.streamId.slice(2), typeof truncateBefore === 'number' ? truncateBefore : 0);
  }

  /** Follows one server subscription until it ends, drops (rejects), or onEvents fails. */
  async function follow(subscription: AllStreamSubscription, received: Received): Promise<void> {
    for await (const batch of batches<AllStreamResolvedEvent>(subscription, batchSize, received)) {
      const events: StoredEvent[] = [];
      let seenUpTo = position;
      let lastSeen: Position | undefined;
      for (const resolved of batch) {
        const event = resolved.event;
        if (!event) continue;
        const globalPosition = globalPositionOf(event, resolved.commitPosition);
        if (globalPosition <= seenUpTo) continue;
        seenUpTo = globalPosition;
        lastSeen = event.position;
        if (event.type === '$metadata' && event.streamId.startsWith('$$')) learnTruncation(event);
        if (isSystemEvent(event) || (types !== undefined && !types.has(event.type))) continue;
        events.push(toStoredEvent(event, globalPosition));
      }
      // A failed metadata read drops this server subscription; the next resumes before the batch.
      const shown = events.length > 0 ? await log.truncations.visible(events) : events;
      if (shown.length > 0) {
        try {
          await options.onEvents(shown);
        } catch (error) {
          subscriberFailure = { error };
          return;
        }
      }
      if (seenUpTo > position) {
        position = seenUpTo;
        resumeFrom = lastSeen ?? readPositionAfter(seenUpTo);
      }
      if (received.pendingCheckpoint && subscription.readableLength === 0) {
        advanceTo(received.pendingCheckpoint);
        received.pendingCheckpoint = undefined;
      }
      if (stopped) return;
    }
  }

  /** One server subscription, followed until it ends; what dropped it, if anything. */
  async function followOnce(): Promise<Error | undefined> {
    const received: Received = { idle: false, pendingCheckpoint: undefined };
    const subscription = client.subscribeToAll(
      {
        fromPosition: resumeFrom,
        filter: { ...filter, checkpointReached: (from, checkpoint) => onCheckpoint(from, received, checkpoint) },
      },
      // Lets a whole batch wait in the buffer; beyond it the gRPC stream is paused.
      { highWaterMark: batchSize },
    );
    current = subscription;
    try {
      await follow(subscription, received);
      return undefined;
    } catch (error) {
      return error instanceof Error ? error : new Error(String(error));
    } finally {
      current = undefined;
      closeQuietly(subscription);
    }
  }

  async function run(): Promise<void> {
    let retryDelay = FIRST_RETRY_DELAY_MS;
    // A checkpoint past the end (the log restored from an older backup, the checkpoints kept)
    // would have the server wait for that position, then skip everything before it.
    let checked = position === 0;
    while (!stopped) {
      const positionBefore = position;
      if (checked) {
        const dropped = await followOnce();
        if (subscriberFailure) throw subscriberFailure.error;
        if (stopped) break;
        if (dropped !== undefined && isFatalSubscriptionError(dropped)) throw explained(dropped);
      } else {
        const end = await log.endOfLog().catch((error: unknown) => {
          if (isFatalSubscriptionError(error)) throw explained(error);
          return undefined;
        });
        if (end !== undefined && position > end) {
          throw new SubscriptionRefusedError(
            `Checkpoint ${position} is past the end of the EventStoreDB log (${end}): the log was ` +
              'restored or replaced since; rebuild the read models from it',
          );
        }
        checked = end !== undefined;
        if (checked) continue;
      }
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

/** A refusal for good, saying what to fix; access denied names the user's missing right. */
function explained(error: unknown): SubscriptionRefusedError {
  if (errorType(error) === 'access-denied') {
    return new SubscriptionRefusedError(
      'EventStoreDB denied this subscription access to $all: the connection string’s user needs read ' +
        'access to $all ($all is readable by admins only on a secure server)',
      { cause: error },
    );
  }
  const reason = error instanceof Error ? error.message : String(error);
  return new SubscriptionRefusedError(`EventStoreDB refused the subscription: ${reason}`, { cause: error });
}

function closeQuietly(subscription: AllStreamSubscription): void {
  subscription.unsubscribe().catch(() => {});
  subscription.destroy();
}

/**
 * Everything already buffered, up to `max`, as one array; waits only for the first item.
 * `state.idle` is true only while it waits holding no item.
 */
async function* batches<T>(readable: Readable, max: number, state: { idle: boolean }): AsyncGenerator<T[]> {
  const items = readable[Symbol.asyncIterator]() as AsyncIterator<T>;
  for (;;) {
    state.idle = true;
    const first = await items.next();
    state.idle = false;
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

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
