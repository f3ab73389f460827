import type { StoredEvent } from '@qrshirt/core';

/** Metadata reads one lookup runs at once: a page of $all can name hundreds of streams. */
const CONCURRENT_LOOKUPS = 16;

/** The revision a stream's `$tb` (truncate before) hides its earlier events below; 0 without one. */
export type ReadTruncation = (streamName: string) => Promise<number>;

/**
 * What `$tb` hides, for one read of $all. The server applies a stream's `$tb` to reads of that
 * stream at once, but $all returns the truncated events until a scavenge deletes them: after the
 * personal-data or lookup-key migration, the clear originals beside their sealed copies. Each
 * stream's metadata is read once for the whole read; later events of it cost a lookup here.
 */
export function hiddenByTruncation(readTruncation: ReadTruncation): {
  visible(this: void, events: readonly StoredEvent[]): Promise<StoredEvent[]>;
} {
  const truncatedBefore = new Map<string, number>();
  return {
    async visible(events) {
      const unknown = [...new Set(events.map((event) => event.streamName))].filter(
        (streamName) => !truncatedBefore.has(streamName),
      );
      for (let i = 0; i < unknown.length; i += CONCURRENT_LOOKUPS) {
        const streams = unknown.slice(i, i + CONCURRENT_LOOKUPS);
        const revisions = await Promise.all(streams.map(readTruncation));
        streams.forEach((streamName, j) => truncatedBefore.set(streamName, revisions[j]!));
      }
      return events.filter((event) => event.revision >= truncatedBefore.get(event.streamName)!);
    },
  };
}
