import type { EventData, ScanRequest } from '@qrshirt/contracts';

/** A scan request as the ingestion port takes it: older gateways left the visitor's hashes out. */
export type ScanRequestInput = Pick<ScanRequest, 'scanId' | 'fundraiserId' | 'at'> & Partial<ScanRequest>;

/**
 * A scan request as the gateway accepted it: its visitor's hashes and whether it came from a
 * robot, not yet whether it counts; the stream's single writer decides that (scan-counting.ts).
 */
export type ScanFact = ScanRequestInput;

export type AnalyticsFact =
  | { type: 'PageViewed'; data: EventData<'PageViewed'> }
  | { type: 'ShirtClicked'; data: EventData<'ShirtClicked'> }
  | { type: 'WaitlistSignup'; data: EventData<'WaitlistSignup'> }
  | { type: 'DonationCompleted'; data: EventData<'DonationCompleted'> };

/**
 * The high-volume path (scans, analytics). Each promise resolves only once the facts are
 * durable: appended to the event store (embedded batcher) or acknowledged by Kafka.
 */
export interface Ingestion {
  recordScan(scan: ScanFact): Promise<void>;
  recordAnalytics(facts: readonly AnalyticsFact[]): Promise<void>;
  close(): Promise<void>;
}

/** A request as the ingestion port takes it, with what older gateways left out filled in. */
export function toScanRequest(scan: ScanRequestInput): ScanRequest {
  return {
    scanId: scan.scanId,
    fundraiserId: scan.fundraiserId,
    at: scan.at,
    visitorHash: scan.visitorHash ?? null,
    addressHash: scan.addressHash ?? null,
    bot: scan.bot ?? false,
  };
}

/**
 * The single writer of a scans' stream: decides which scans count and appends them, in the
 * order given, in one append (the fundraisers' scan-stream-writer.ts). The embedded batcher
 * hands it each batch.
 */
export interface ScanStreamWriter {
  /** Stores the first `singly` requests one by one and tallies the rest (all singly by default). */
  append(requests: readonly ScanRequest[], singly?: number): Promise<void>;
}

/** The queue is full or the backend is down: the caller answers 503 and the client retries. */
export class IngestionUnavailableError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'IngestionUnavailableError';
  }
}
