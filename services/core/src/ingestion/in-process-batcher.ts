import { eventMetadata } from '@qrshirt/contracts';
import type { EventStore, NewEvent } from '../event-sourcing/event-store';
import type { AnalyticsFact, Ingestion, ScanFact } from './ingestion';
import { createMicroBatcher, type Waiting } from './micro-batcher';

export interface InProcessBatcherOptions {
  eventStore: EventStore;
  maxBatch?: number;
  lingerMs?: number;
  maxPending?: number;
}

interface Pending {
  stream: string;
  event: NewEvent;
}

/** The embedded stream for scans: one "partition", like the Kafka ingestor's scans-p<n>. */
export const EMBEDDED_SCAN_STREAM = 'scans-p0';

export const analyticsStream = (at: string) => `analytics-${at.slice(0, 10)}`;

/**
 * The embedded ingestion: scans and analytics facts that arrive within a few milliseconds become
 * one append per stream, so a crowd of scanners costs the store a handful of transactions.
 */
export function createInProcessBatcher(options: InProcessBatcherOptions): Ingestion {
  const { eventStore, maxBatch = 500, lingerMs = 2, maxPending = 20_000 } = options;

  /** One append per stream; a failed append fails its own facts only, never committed ones. */
  async function write(batch: Waiting<Pending>[]): Promise<void> {
    const byStream = new Map<string, Waiting<Pending>[]>();
    for (const waiting of batch) {
      const group = byStream.get(waiting.item.stream);
      if (group) group.push(waiting);
      else byStream.set(waiting.item.stream, [waiting]);
    }
    await Promise.all(
      [...byStream].map(async ([stream, group]) => {
        try {
          await eventStore.appendToStream(
            stream,
            group.map((waiting) => waiting.item.event),
            { expectedRevision: 'any' },
          );
          for (const waiting of group) waiting.resolve();
        } catch (error) {
          for (const waiting of group) waiting.reject(error);
        }
      }),
    );
  }

  const batcher = createMicroBatcher<Pending>({ write, maxBatch, lingerMs, maxPending });
  return {
    recordScan(scan: ScanFact) {
      return batcher.enqueue([
        {
          stream: EMBEDDED_SCAN_STREAM,
          event: { type: 'ScanRecorded', data: scan, metadata: eventMetadata('ScanRecorded') },
        },
      ]);
    },
    recordAnalytics(facts: readonly AnalyticsFact[]) {
      return batcher.enqueue(
        facts.map((fact) => ({
          stream: analyticsStream(fact.data.at),
          event: { type: fact.type, data: fact.data, metadata: eventMetadata(fact.type) },
        })),
      );
    },
    close: () => batcher.close(),
  };
}
