import { performance } from 'node:perf_hooks';
import { IngestionUnavailableError } from '../ports/ingestion';

export interface Waiting<Item> {
  item: Item;
  /** When it was enqueued (`performance.now()`): its caller's wait began then. */
  acceptedAt: number;
  resolve(): void;
  reject(error: unknown): void;
}

export interface MicroBatcherOptions<Item> {
  /** Writes one batch and settles each of its items (some may fail alone). Never rejects. */
  write(this: void, batch: Waiting<Item>[]): Promise<void>;
  /** Flush once this many items wait… */
  maxBatch: number;
  /**
   * …or this long after the first one arrived, whichever comes first. 0: as soon as the requests
   * that arrived together have been read (`setImmediate`), for a writer that blocks the event loop
   * anyway (SQLite): a timer would leave the process idle while the crowd waits for it.
   */
  lingerMs: number;
  /** Beyond this many waiting items new ones are refused, so memory stays bounded under a flood. */
  maxPending: number;
  /** Writes in flight at once; with more than one, batches may complete out of order. */
  concurrency?: number;
  /**
   * An item still waiting for a write this long after it was enqueued is refused and never
   * written: time spent behind stuck writes counts against its caller's deadline too.
   */
  deadlineMs?: number;
}

export interface MicroBatcher<Item> {
  /** Resolves once every item was written. */
  enqueue(items: readonly Item[]): Promise<void>;
  /** Writes what waits, then refuses new items. */
  close(): Promise<void>;
}

/**
 * Groups items that arrive within a few milliseconds into one write. While `concurrency` writes
 * are in flight (one by default, which keeps arrival order), newcomers wait and leave together
 * when one returns, so batches grow with the load instead of queueing up many small writes.
 * Shared by the embedded batcher and the Kafka producer, which has no linger of its own.
 */
export function createMicroBatcher<Item>(options: MicroBatcherOptions<Item>): MicroBatcher<Item> {
  const { write, maxBatch, lingerMs, maxPending, concurrency = 1, deadlineMs } = options;
  let queue: Waiting<Item>[] = [];
  let timer: NodeJS.Timeout | NodeJS.Immediate | undefined;
  let expiry: NodeJS.Timeout | undefined;
  const writing = new Set<Promise<void>>();
  let closed = false;

  function flush(): void {
    if (timer) {
      if (lingerMs === 0) clearImmediate(timer as NodeJS.Immediate);
      else clearTimeout(timer as NodeJS.Timeout);
    }
    timer = undefined;
    while (writing.size < concurrency && queue.length > 0) {
      const batch = queue.slice(0, maxBatch);
      queue = queue.slice(batch.length);
      const written: Promise<void> = write(batch).finally(() => {
        writing.delete(written);
        flush();
      });
      writing.add(written);
    }
  }

  /** Refuses the items past their deadline: the oldest, at the head of the queue. */
  function expire(): void {
    expiry = undefined;
    const now = performance.now();
    let expired = 0;
    while (expired < queue.length && now - queue[expired]!.acceptedAt >= deadlineMs!) expired++;
    const late = queue.slice(0, expired);
    queue = queue.slice(expired);
    const refused = new IngestionUnavailableError('Scans cannot be stored right now, please retry shortly');
    for (const waiting of late) waiting.reject(refused);
    watchDeadline();
  }

  function watchDeadline(): void {
    if (deadlineMs === undefined || expiry || queue.length === 0) return;
    expiry = setTimeout(expire, Math.max(0, queue[0]!.acceptedAt + deadlineMs - performance.now()));
    // The callers wait on their items, not on this timer.
    expiry.unref();
  }

  return {
    enqueue(items) {
      if (closed) return Promise.reject(new IngestionUnavailableError('Ingestion is shutting down'));
      if (queue.length + items.length > maxPending) {
        return Promise.reject(new IngestionUnavailableError('Too many scans at once, please retry shortly'));
      }
      const acceptedAt = performance.now();
      const written = items.map(
        (item) => new Promise<void>((resolve, reject) => queue.push({ item, acceptedAt, resolve, reject })),
      );
      watchDeadline();
      if (queue.length >= maxBatch) flush();
      else timer ??= lingerMs === 0 ? setImmediate(flush) : setTimeout(flush, lingerMs);
      return Promise.all(written).then(() => undefined);
    },
    async close() {
      closed = true;
      flush();
      while (writing.size > 0) await Promise.all(writing);
    },
  };
}
