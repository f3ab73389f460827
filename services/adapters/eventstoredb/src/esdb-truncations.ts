import { LRUCache } from 'lru-cache';
import type { StoredEvent } from '@qrshirt/core';

/** Metadata reads one lookup runs at once: a page of $all can name hundreds of streams. */
const CONCURRENT_LOOKUPS = 16;
/** Streams whose `$tb` one subscription keeps: a projector follows every stream of the log. */
const KEPT_STREAMS = 50_000;

/** The revision a stream's `$tb` (truncate before) hides its earlier events below; 0 without one. */
export type ReadTruncation = (streamName: string) => Promise<number>;

export interface Truncations {
  /** What of `events` their streams' `$tb` leaves visible, reading each unknown stream's once. */
  visible(this: void, events: readonly StoredEvent[]): Promise<StoredEvent[]>;
  /** A stream's new `$tb`, seen in its metadata stream (`$$<name>`) as the server wrote it. */
  truncated(this: void, streamName: string, truncateBefore: number): void;
}

/**
 * What `$tb` hides. The server applies a stream's `$tb` to reads of that stream at once, but $all
 * returns the truncated events until a scavenge deletes them: after the personal-data or
 * lookup-key migration, the clear originals beside their sealed copies. Each stream's metadata is
 * read once, and kept for as long as the caller keeps this: one read of $all, or a subscription,
 * which sees each later truncation's `$metadata` event and learns the new `$tb` from it.
 */
export function truncations(readTruncation: ReadTruncation): Truncations {
  const truncatedBefore = new LRUCache<string, number>({ max: KEPT_STREAMS });
  return {
    async visible(events) {
      const unknown = [...new Set(events.map((event) => event.streamName))].filter(
        (streamName) => !truncatedBefore.has(streamName),
      );
      for (let i = 0; i < unknown.length; i += CONCURRENT_LOOKUPS) {
        const streams = unknown.slice(i, i + CONCURRENT_LOOKUPS);
        const revisions = await Promise.all(streams.map(readTruncation));
        streams.forEach((streamName, j) => truncatedBefore.set(streamName, revisions[j]));
      }
      return events.filter((event) => event.revision >= (truncatedBefore.get(event.streamName) ?? 0));
    },
    truncated(streamName, truncateBefore) {
      truncatedBefore.set(streamName, truncateBefore);
    },
  };
}
