import { eventMetadata, type ScanRequest } from '@qrshirt/contracts';
import type { EventStore, NewEvent } from '../kit/event-store';
import {
  type AnalyticsFact,
  type Ingestion,
  type ScanFact,
  type ScanStreamWriter,
  toScanRequest,
} from '../ports/ingestion';
import { createMicroBatcher, type Waiting } from '../kit/micro-batcher';
import { type Clock, systemClock } from '../kit/clock';
import { ANONYMOUS_EVENTS_PER_MINUTE, createAnalyticsSampler, createLogCap } from './log-cap';

export interface InProcessBatcherOptions {
  eventStore: EventStore;
  /** The single writer of the scans' stream, which decides which count (the fundraisers'). */
  scans: ScanStreamWriter;
  maxBatch?: number;
  lingerMs?: number;
  maxPending?: number;
  /** Scans and analytics events stored one by one per minute (log-cap.ts). */
  anonymousEventsPerMinute?: number;
  clock?: Clock;
}

/** An analytics event for its day's stream, or a scan request for the scan writer. */
type Pending = { stream: string; event: NewEvent } | { scan: ScanRequest };

export const analyticsStream = (at: string) => `analytics-${at.slice(0, 10)}`;

/**
 * The embedded ingestion: scans and analytics facts that arrive within a few milliseconds become
 * one append per stream, so a crowd of scanners costs the store a handful of transactions.
 */
export function createInProcessBatcher(options: InProcessBatcherOptions): Ingestion {
  // No linger: an append blocks the event loop (better-sqlite3), so requests read meanwhile wait
  // and leave together anyway, and a timer only left the process idle: +12% scans/s at 50 connections.
  const { eventStore, scans, maxBatch = 500, lingerMs = 0, maxPending = 20_000 } = options;
  const cap = createLogCap({
    perMinute: options.anonymousEventsPerMinute ?? ANONYMOUS_EVENTS_PER_MINUTE,
    clock: options.clock ?? systemClock,
  });
  const sampler = createAnalyticsSampler();

  /**
   * One append per stream; a failed append fails its own facts only, never committed ones. The
   * batch's facts past the log's cap, in arrival order: scans tallied, analytics sampled (a left
   * out one is answered at once, as accepted).
   */
  async function write(batch: Waiting<Pending>[]): Promise<void> {
    const singly = cap.take(batch.length);
    const scanGroup: Waiting<{ scan: ScanRequest }>[] = [];
    let scansSingly = 0;
    const byStream = new Map<string, Waiting<{ stream: string; event: NewEvent }>[]>();
    for (const [index, waiting] of batch.entries()) {
      const { item } = waiting;
      if ('scan' in item) {
        scanGroup.push({ ...waiting, item });
        if (index < singly) scansSingly++;
        continue;
      }
      const weight = index < singly ? 1 : sampler.weightOf(item.event.type);
      if (weight === undefined) {
        waiting.resolve();
        continue;
      }
      const event = weight === 1 ? item.event : { ...item.event, data: { ...(item.event.data as object), weight } };
      const group = byStream.get(item.stream);
      const typed = { ...waiting, item: { stream: item.stream, event } };
      if (group) group.push(typed);
      else byStream.set(item.stream, [typed]);
    }
    const settle = async <Item>(group: Waiting<Item>[], append: () => Promise<unknown>) => {
      if (group.length === 0) return;
      try {
        await append();
        for (const waiting of group) waiting.resolve();
      } catch (error) {
        for (const waiting of group) waiting.reject(error);
      }
    };
    await Promise.all([
      settle(scanGroup, () =>
        scans.append(
          scanGroup.map((waiting) => waiting.item.scan),
          scansSingly,
        ),
      ),
      ...[...byStream].map(([stream, group]) =>
        settle(group, () =>
          eventStore.appendToStream(
            stream,
            group.map((waiting) => waiting.item.event),
            { expectedRevision: 'any' },
          ),
        ),
      ),
    ]);
  }

  // One write at a time (the micro-batcher's default): the scan writer decides in arrival order.
  const batcher = createMicroBatcher<Pending>({ write, maxBatch, lingerMs, maxPending });
  return {
    recordScan(scan: ScanFact) {
      return batcher.enqueue([{ scan: toScanRequest(scan) }]);
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
