import type { CopyingLog } from '@qrshirt/core';
import { openEventStoreDb, type EventStoreDbEventStoreOptions } from './esdb-event-store';

/** Events of $all read per request. */
const PAGE_SIZE = 500;

/**
 * EventStoreDB as the personal-data migration rewrites it: events cannot be changed, so a stream
 * gets sealed copies and its `$tb` (truncate before) set past the originals, which reads no
 * longer return and the next scavenge deletes, as EventStoreDB documents for personal data.
 * Everything goes through the store's one client, closed with it.
 */
export function openEventStoreDbCopyingLog(options: EventStoreDbEventStoreOptions): CopyingLog & {
  close(): Promise<void>;
} {
  const { store, readAllWithTruncated, client, guard } = openEventStoreDb(options);

  return {
    // With the originals earlier runs truncated: a rerun finds and reports what awaits the scavenge.
    async *readAllOf(types) {
      let after = 0;
      for (;;) {
        const page = await readAllWithTruncated({ after, eventTypes: types, maxCount: PAGE_SIZE });
        yield* page;
        const last = page.at(-1);
        if (!last || page.length < PAGE_SIZE) return;
        after = last.globalPosition;
      }
    },
    // The server applies `$tb` to stream reads at once, before any scavenge.
    readLive: (streamName) => store.readStream(streamName),
    async append(streamName, events, expectedRevision) {
      await store.appendToStream(streamName, events, { expectedRevision });
    },
    async truncateBefore(streamName, revision) {
      const { client: opened } = await client();
      await guard.run(`the truncation of ${streamName}`, async ({ deadlineMs }) => {
        const until = { deadline: deadlineMs };
        // Setting metadata replaces all of it: keep what the stream had (max age, ACLs).
        const { metadata } = await opened.getStreamMetadata(streamName, until);
        await opened.setStreamMetadata(streamName, { ...metadata, truncateBefore: revision }, until);
      });
    },
    close: () => store.close(),
  };
}
