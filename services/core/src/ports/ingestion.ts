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

/** The queue is full or the backend is down: the caller answers 503 and the client retries. */
export class IngestionUnavailableError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'IngestionUnavailableError';
  }
}
