import type { NewEvent, StoredEvent } from './event-store';

/**
 * A log whose events cannot be changed (EventStoreDB): a stream is rewritten by appending copies
 * of its events (sealed by the personal-data migration, renamed by the lookup-key one) and
 * truncating the stream before them.
 */
export interface CopyingLog {
  /**
   * The events of these types in the whole log ($all), oldest first, truncated ones included
   * until the server's scavenge deletes them.
   */
  readAllOf(types: readonly string[]): AsyncIterable<StoredEvent>;
  /** The stream's events that reads still return (not truncated), oldest first. */
  readLive(streamName: string): Promise<StoredEvent[]>;
  /** Appends if the stream's last revision is still `expectedRevision` ('no_stream': it has none). */
  append(streamName: string, events: readonly NewEvent[], expectedRevision: number | 'no_stream'): Promise<void>;
  /** Hides the events before `revision` from every read; the server deletes them later. */
  truncateBefore(streamName: string, revision: number): Promise<void>;
}

/** Metadata of a sealed copy: the event it replaces, and when that one was recorded. */
export const COPY_OF = 'personalDataCopyOf';
export const ORIGINAL_RECORDED_AT = 'originalRecordedAt';
