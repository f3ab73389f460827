import type { ChangeSignal } from './change-signal';
import type { StoredEvent, Subscription } from './event-store';

export interface PolledBatch {
  events: StoredEvent[];
  /** How far the read looked, matching events or not: the next read starts after it. */
  scannedTo: number;
}

export interface PollingSubscriptionOptions {
  after: number;
  batchSize: number;
  pollIntervalMs: number;
  /**
   * Batches under load: after a batch of at least `fromEvents` events that did not fill
   * `batchSize`, the next read waits until `ms` after this one. A live subscription following a
   * stream of small commits (a crowd's scans) then takes what they wrote in that time as one
   * batch, where it took each commit's events alone, and its reader (a projection) commits once
   * instead of many times. Smaller batches, one command's events, are followed at once, so a read
   * model still shows a command's outcome as soon as it did without this.
   */
  gather?: { fromEvents: number; ms: number };
  onEvents(this: void, events: StoredEvent[]): Promise<void> | void;
  read(this: void, after: number, maxCount: number): PolledBatch;
  /** Commits by this process; commits by other processes are seen at the next poll. */
  changes: ChangeSignal;
}

/**
 * Catch-up then live over a synchronous reader: read a batch, hand it over, wait for it to settle,
 * repeat; when nothing is new, sleep until a local commit or the next poll tick.
 */
export function startPollingSubscription(options: PollingSubscriptionOptions): Subscription {
  const { batchSize, pollIntervalMs, onEvents, read, changes, gather } = options;
  let stopped = false;
  let sleeping: { wake(): void } | undefined;

  /** Waits `ms`, or less if the subscription is stopped meanwhile. */
  async function pause(ms: number): Promise<void> {
    let wake = (): void => {};
    const paused = new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    sleeping = { wake };
    await paused;
    sleeping = undefined;
  }

  async function run(): Promise<void> {
    // Not inside subscribe(): the caller gets its Subscription before the first onEvents call.
    await Promise.resolve();
    let cursor = options.after;
    let nextReadAt = 0;
    while (!stopped) {
      const early = nextReadAt - performance.now();
      if (early > 0) {
        await pause(early);
        if (stopped) break;
      }
      const batch = read(cursor, batchSize);
      cursor = batch.scannedTo;
      const underLoad = gather && batch.events.length >= gather.fromEvents && batch.events.length < batchSize;
      nextReadAt = underLoad ? performance.now() + gather.ms : 0;
      if (batch.events.length > 0) {
        await onEvents(batch.events);
        // Lets I/O run between the batches of a long catch-up, even when onEvents is synchronous.
        await new Promise<void>((resolve) => setImmediate(resolve));
        continue;
      }
      // Registered in the same synchronous step as the read, so no local commit can slip between.
      const sleep = changes.next(pollIntervalMs);
      sleeping = sleep;
      await sleep.promise;
      sleeping = undefined;
    }
  }

  const done = run();
  return {
    done,
    async stop() {
      stopped = true;
      sleeping?.wake();
      await done.catch(() => {});
    },
  };
}

/** A store's live subscriptions, so that closing the store stops each of them first. */
export function createSubscriptionRegistry() {
  const live = new Set<Subscription>();
  return {
    track(subscription: Subscription): Subscription {
      live.add(subscription);
      const forget = (): void => void live.delete(subscription);
      subscription.done.then(forget, forget);
      return subscription;
    },
    async stopAll(): Promise<void> {
      await Promise.all([...live].map((subscription) => subscription.stop()));
    },
  };
}
