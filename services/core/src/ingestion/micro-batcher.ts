import { IngestionUnavailableError } from './ingestion';

export interface Waiting<Item> {
  item: Item;
  resolve(): void;
  reject(error: unknown): void;
}

export interface MicroBatcherOptions<Item> {
  /** Writes one batch and settles each of its items (some may fail alone). Never rejects. */
  write(batch: Waiting<Item>[]): Promise<void>;
  /** Flush once this many items wait… */
  maxBatch: number;
  /** …or this long after the first one arrived, whichever comes first. */
  lingerMs: number;
  /** Beyond this many waiting items new ones are refused, so memory stays bounded under a flood. */
  maxPending: number;
}

export interface MicroBatcher<Item> {
  /** Resolves once every item was written. */
  enqueue(items: readonly Item[]): Promise<void>;
  /** Writes what waits, then refuses new items. */
  close(): Promise<void>;
}

/**
 * Groups items that arrive within a few milliseconds into one write, one write at a time so
 * items keep their arrival order. While a write is in flight, newcomers wait and leave together
 * when it returns, so batches grow with the load instead of queueing up many small writes.
 * Shared by the embedded batcher and the Kafka producer, which has no linger of its own.
 */
export function createMicroBatcher<Item>(options: MicroBatcherOptions<Item>): MicroBatcher<Item> {
  const { write, maxBatch, lingerMs, maxPending } = options;
  let queue: Waiting<Item>[] = [];
  let timer: NodeJS.Timeout | undefined;
  let writing: Promise<void> | undefined;
  let closed = false;

  function flush(): void {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (writing || queue.length === 0) return;
    const batch = queue.slice(0, maxBatch);
    queue = queue.slice(batch.length);
    writing = write(batch).finally(() => {
      writing = undefined;
      flush();
    });
  }

  return {
    enqueue(items) {
      if (closed) return Promise.reject(new IngestionUnavailableError('Ingestion is shutting down'));
      if (queue.length + items.length > maxPending) {
        return Promise.reject(new IngestionUnavailableError('Too many scans at once, please retry shortly'));
      }
      const written = items.map(
        (item) => new Promise<void>((resolve, reject) => queue.push({ item, resolve, reject })),
      );
      if (queue.length >= maxBatch) flush();
      else timer ??= setTimeout(flush, lingerMs);
      return Promise.all(written).then(() => undefined);
    },
    async close() {
      closed = true;
      flush();
      while (writing) await writing;
    },
  };
}
