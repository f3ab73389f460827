import type { CopyingLog, EventStore } from '../../src/index';

/*
 * A log that behaves as EventStoreDB does for the migrations by copies: a truncated stream's reads
 * skip the events before its `$tb` at once, while $all holds them until a scavenge.
 */

interface TruncatingLog extends CopyingLog {
  /** Deletes what truncations hide, as the server's scavenge does. */
  scavenge(): Promise<void>;
  /** The next append writes only its first `count` events, then fails, as a crash between requests. */
  failAppendAfter(count: number): void;
  /** The next truncation fails, as a crash right after the copies were appended. */
  failNextTruncation(): void;
}

export function truncatingLog(store: EventStore): TruncatingLog {
  const truncatedBefore = new Map<string, number>();
  const scavenged = new Set<string>();
  let appendFailsAfter: number | undefined;
  let truncationFails = false;
  return {
    async *readAllOf(types) {
      for (const event of await store.readAll({ eventTypes: types })) {
        if (!scavenged.has(event.id)) yield event;
      }
    },
    async readLive(streamName) {
      const from = truncatedBefore.get(streamName) ?? 0;
      return (await store.readStream(streamName)).filter((event) => event.revision >= from);
    },
    async append(streamName, events, expectedRevision) {
      if (appendFailsAfter !== undefined) {
        const count = appendFailsAfter;
        appendFailsAfter = undefined;
        await store.appendToStream(streamName, events.slice(0, count), { expectedRevision });
        throw new Error('connection lost');
      }
      await store.appendToStream(streamName, events, { expectedRevision });
    },
    async truncateBefore(streamName, revision) {
      if (truncationFails) {
        truncationFails = false;
        throw new Error('connection lost');
      }
      truncatedBefore.set(streamName, revision);
    },
    async scavenge() {
      for (const event of await store.readAll()) {
        if (event.revision < (truncatedBefore.get(event.streamName) ?? 0)) scavenged.add(event.id);
      }
    },
    failAppendAfter(count) {
      appendFailsAfter = count;
    },
    failNextTruncation() {
      truncationFails = true;
    },
  };
}
