import { eventMetadata } from '@qrshirt/contracts';
import type { EventStore, NewEvent } from '../event-store/event-store';
import { type AnalyticsFact, type Ingestion, IngestionUnavailableError, type ScanFact } from './ingestion';

export interface InProcessBatcherOptions {
  eventStore: EventStore;
  /** Flush once this many facts wait… */
  maxBatch?: number;
  /** …or this long after the first one arrived, whichever comes first. */
  lingerMs?: number;
  /** Beyond this many waiting facts new ones are refused, so memory stays bounded under a flood. */
  maxPending?: number;
}

interface Pending {
  stream: string;
  event: NewEvent;
  settle: { resolve(): void; reject(error: unknown): void };
}

/** The embedded stream for scans: one "partition", like the Kafka ingestor's scans-p<n>. */
export const EMBEDDED_SCAN_STREAM = 'scans-p0';

export const analyticsStream = (at: string) => `analytics-${at.slice(0, 10)}`;

/**
 * Groups scans and analytics facts that arrive within a few milliseconds into one append per
 * stream, so a crowd of scanners costs the store a handful of transactions, not one each.
 */
export function createInProcessBatcher(options: InProcessBatcherOptions): Ingestion {
  const { eventStore, maxBatch = 500, lingerMs = 2, maxPending = 20_000 } = options;
  let queue: Pending[] = [];
  let timer: NodeJS.Timeout | undefined;
  let inFlight = Promise.resolve();
  let closed = false;

  function flush(): void {
    if (timer) clearTimeout(timer);
    timer = undefined;
    const batch = queue;
    queue = [];
    if (batch.length === 0) return;
    // Flushes run one after another so events keep their arrival order within a stream.
    inFlight = inFlight.then(() => write(batch));
  }

  async function write(batch: Pending[]): Promise<void> {
    const byStream = new Map<string, Pending[]>();
    for (const item of batch) {
      const group = byStream.get(item.stream);
      if (group) group.push(item);
      else byStream.set(item.stream, [item]);
    }
    await Promise.all(
      [...byStream].map(async ([stream, items]) => {
        try {
          await eventStore.appendToStream(
            stream,
            items.map((item) => item.event),
            { expectedRevision: 'any' },
          );
          for (const item of items) item.settle.resolve();
        } catch (error) {
          for (const item of items) item.settle.reject(error);
        }
      }),
    );
  }

  function enqueue(items: Omit<Pending, 'settle'>[]): Promise<void> {
    if (closed) return Promise.reject(new IngestionUnavailableError('Ingestion is shutting down'));
    if (queue.length + items.length > maxPending) {
      return Promise.reject(new IngestionUnavailableError('Too many scans at once, please retry shortly'));
    }
    const settled = items.map(
      (item) =>
        new Promise<void>((resolve, reject) => {
          queue.push({ ...item, settle: { resolve, reject } });
        }),
    );
    if (queue.length >= maxBatch) flush();
    else timer ??= setTimeout(flush, lingerMs);
    return Promise.all(settled).then(() => undefined);
  }

  return {
    recordScan(scan: ScanFact) {
      return enqueue([
        { stream: EMBEDDED_SCAN_STREAM, event: { type: 'ScanRecorded', data: scan, metadata: eventMetadata('ScanRecorded') } },
      ]);
    },
    recordAnalytics(facts: readonly AnalyticsFact[]) {
      return enqueue(
        facts.map((fact) => ({
          stream: analyticsStream(fact.data.at),
          event: { type: fact.type, data: fact.data, metadata: eventMetadata(fact.type) },
        })),
      );
    },
    async close() {
      closed = true;
      flush();
      await inFlight;
    },
  };
}
