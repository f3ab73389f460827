import type { ScanRequest } from '@qrshirt/contracts';
import { ConcurrencyError, type EventStore } from '../kit/event-store';
import { IngestionUnavailableError, type ScanStreamWriter } from '../ports/ingestion';
import { rebuildScanCounter, type ScanCounter, scanEvents } from './scan-counting';

/** The embedded stream for scans: one "partition", like the Kafka ingestor's scans-p<n>. */
export const EMBEDDED_SCAN_STREAM = 'scans-p0';

/** Appends lost to another writer of the same stream before a batch of scans is refused. */
const SCAN_APPEND_TRIES = 3;

/**
 * The embedded process's single writer of its scan stream: it decides which scans count (see
 * scan-counting.ts) from a memory rebuilt from the stream when it starts, and appends at exactly
 * the revision that memory was built up to. Should another process write the stream (a second
 * embedded process on the same file), the append fails, the memory is rebuilt and the batch
 * decided again; after any failed append the memory is rebuilt before the next batch.
 */
export function createScanStreamWriter(eventStore: EventStore, stream: string): ScanStreamWriter {
  let memory: { counter: ScanCounter; revision: number } | undefined;

  async function rebuild(): Promise<{ counter: ScanCounter; revision: number }> {
    const revision = (await eventStore.readLastEvent(stream))?.revision ?? -1;
    return { counter: await rebuildScanCounter(eventStore, stream, revision), revision };
  }

  return {
    async append(requests: readonly ScanRequest[], singly = requests.length): Promise<void> {
      for (let tries = 1; ; tries++) {
        const current = (memory ??= await rebuild());
        const decisions = requests.map((scan) => ({ scan, counted: current.counter.count(scan) }));
        const events = scanEvents(decisions, singly).map(({ event }) => event);
        try {
          const result = await eventStore.appendToStream(stream, events, {
            expectedRevision: current.revision < 0 ? 'no_stream' : current.revision,
          });
          current.revision = result.nextExpectedRevision;
          return;
        } catch (error) {
          // The decisions above are in the memory but not in the stream: forget them all.
          memory = undefined;
          if (!(error instanceof ConcurrencyError)) throw error;
          if (tries >= SCAN_APPEND_TRIES) {
            throw new IngestionUnavailableError('Scans cannot be stored right now, please retry shortly');
          }
        }
      }
    },
  };
}
