import type { PolledBatch, StoredEvent } from '@qrshirt/core';
import type { CommittedAppend, SerializedAppend } from './sqlite-appender';

/** One event this store wrote, kept as it was sent; made a StoredEvent the first time one is read. */
export interface RecentEvent {
  append: SerializedAppend;
  index: number;
  globalPosition: number;
  revision: number;
  recordedAt: number;
  stored?: StoredEvent;
}

/**
 * The events this store committed last, with no gap between them, for its subscriptions to take
 * instead of reading them back: a crowd's scans were otherwise read and parsed again from the file
 * by each projection following them, which cost the gateway more than writing them. An event is
 * served from here only inside a run of positions this store wrote itself, so one another process
 * wrote in between is never skipped; a gap simply starts a new run. Each event is parsed once, and
 * every subscription gets the same object (they only read it).
 */
export function createRecentEvents(capacity: number, toStoredEvent: (event: RecentEvent) => StoredEvent) {
  let run: RecentEvent[] = [];

  return {
    /** Takes note of a committed append; a retry that wrote nothing adds nothing. */
    add(append: SerializedAppend, result: CommittedAppend): void {
      if (!result.written) return;
      const count = append.ids.length;
      const first = result.lastGlobalPosition - count + 1;
      if (run.length > 0 && run[run.length - 1]!.globalPosition + 1 !== first) run = [];
      const firstRevision = result.nextExpectedRevision - count + 1;
      for (let index = 0; index < count; index++) {
        run.push({
          append,
          index,
          globalPosition: first + index,
          revision: firstRevision + index,
          recordedAt: result.recordedAt,
        });
      }
      // Trimmed in steps, not at every append, so that each costs O(1) on average.
      if (run.length > 2 * capacity) run = run.slice(run.length - capacity);
    },

    /**
     * As the store reads (after, upTo]: the events of `types` (every type when undefined), at most
     * `maxCount`, and how far it looked. Undefined when this run does not start by `after + 1`.
     * A run ending before `upTo` answers up to its end: the positions past it are either this
     * store's appends whose answer is still on its way from the writer, which join the run when
     * it arrives, or another writer's, which the store reads from the file (`awaitingOwn` tells
     * which to expect). Reading them back just before their answer arrived used to cost the
     * subscriptions one read of the file per commit.
     */
    read(
      after: number,
      upTo: number,
      types: ReadonlySet<string> | undefined,
      maxCount: number,
      awaitingOwn: boolean,
    ): PolledBatch | undefined {
      const start = run[0]?.globalPosition;
      if (start === undefined || after + 1 < start) return undefined;
      const end = Math.min(upTo, run[run.length - 1]!.globalPosition);
      if (end < upTo && end <= after && !awaitingOwn) return undefined;
      const events: StoredEvent[] = [];
      for (let i = after + 1 - start; i <= end - start && events.length < maxCount; i++) {
        const recent = run[i]!;
        if (types && !types.has(recent.append.types[recent.index]!)) continue;
        events.push((recent.stored ??= toStoredEvent(recent)));
      }
      return {
        events,
        scannedTo: events.length < maxCount ? Math.max(after, end) : events[events.length - 1]!.globalPosition,
      };
    },
  };
}
