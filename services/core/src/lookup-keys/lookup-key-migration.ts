import { derivedEventId } from '../kit/derived-event-id';
import type { StoredEvent } from '../kit/event-store';
import { type CopyingLog, ORIGINAL_RECORDED_AT } from '../kit/copying-log';
import { keyedStreamName, LOOKUP_STREAM_OPENERS, LOOKUP_STREAM_PREFIXES } from './keyed-names';
import type { LookupKeys } from '../kit/lookup-keys';

/*
 * `npm run migrate-lookup-keys`: each stream named by an unkeyed hash of an address (a
 * reservation, a waitlist signup) gets the name its lookup key gives it, worked out from the old
 * name alone (`fromUnkeyed`), so the streams of people erased long ago move too. No event changes.
 * A log that can rename in place (SQLite) does; one that cannot (EventStoreDB) gets a copy of each
 * stream under its new name, and the original is truncated, as the personal-data migration does.
 */

/** One stream's move. */
export interface StreamRename {
  from: string;
  to: string;
}

/** A stream cannot take its new name: something was written under it before the migration. */
export class StreamNameTakenError extends Error {
  constructor(
    readonly from: string,
    readonly to: string,
  ) {
    super(
      `${from} cannot be renamed ${to}: a stream of that name exists already, so a process of this version wrote ` +
        'to the log before it was migrated; nothing of this batch was renamed. The two streams need an operator',
    );
    this.name = 'StreamNameTakenError';
  }
}

/** A log whose streams can be renamed where they stand (the SQLite store). */
export interface RenamableLog {
  /** What earlier runs did: streams renamed in all, and whether one of them finished. */
  progress(): Promise<{ renamed: number; finished: boolean }>;
  /** Names of the streams starting with `prefix` that sort after `after`, in order, at most `maxCount`. */
  streamNames(prefix: string, after: string, maxCount: number): Promise<string[]>;
  /**
   * Renames the streams, each event keeping its position, revision, id, type, data, metadata and
   * time, and counts them in the progress, all at once: a run killed between two batches finds
   * what is left by the names. Throws StreamNameTakenError, renaming nothing, when a new name is taken.
   */
  rename(renames: readonly StreamRename[]): Promise<void>;
  /** Records the run finished, leaving no copy of an old name behind in the store's files. */
  finish(): Promise<void>;
}

export interface InPlaceRenameResult {
  /** An interrupted run had renamed some streams: this one did the rest. */
  resumed: boolean;
  /** A run had finished already: this one looked through every name again. */
  wasFinished: boolean;
  /** Stream names looked at. */
  examined: number;
  /** By this run; `renamedInAll` counts every earlier run too. */
  renamed: number;
  renamedInAll: number;
}

/**
 * Renames every stream named by an unkeyed hash, `batchSize` names looked at (and their renames
 * committed) at a time. Idempotent: a renamed stream's name no longer has the old form, so a rerun
 * renames what is left, and nothing after a finished run.
 */
export async function migrateLookupKeysInPlace(options: {
  log: RenamableLog;
  keys: Pick<LookupKeys, 'fromUnkeyed'>;
  batchSize: number;
  onProgress?: (progress: { examined: number; renamed: number }) => void;
}): Promise<InPlaceRenameResult> {
  const { log, keys, batchSize } = options;
  const before = await log.progress();
  let examined = 0;
  let renamed = 0;
  for (const prefix of LOOKUP_STREAM_PREFIXES) {
    let after = prefix;
    for (;;) {
      const names = await log.streamNames(prefix, after, batchSize);
      const last = names.at(-1);
      if (last === undefined) break;
      const renames = names.flatMap((from) => {
        const to = keyedStreamName(keys, from);
        return to === null ? [] : [{ from, to }];
      });
      if (renames.length > 0) await log.rename(renames);
      examined += names.length;
      renamed += renames.length;
      after = last;
      options.onProgress?.({ examined, renamed });
    }
  }
  await log.finish();
  return {
    resumed: !before.finished && before.renamed > 0,
    wasFinished: before.finished,
    examined,
    renamed,
    renamedInAll: before.renamed + renamed,
  };
}

/** Metadata of a moved copy: the event it copies. */
export const LOOKUP_KEY_COPY_OF = 'lookupKeyCopyOf';

export interface CopyRenameResult {
  /** Streams named by an unkeyed hash that the log holds, moved before or now. */
  streams: number;
  /** Streams this run copied to their new names (or finished copying) and truncated. */
  movedStreams: number;
  copiedEvents: number;
  /**
   * Every stream moved, by this run or before, with `Number.MAX_SAFE_INTEGER`: none of its events
   * is read any more, though $all holds them until a scavenge (for `withoutTruncated`).
   */
  truncatedBefore: Map<string, number>;
}

/**
 * Copies each stream named by an unkeyed hash, its whole live history in order, to its new name,
 * and truncates it past its last event. Idempotent: an original already truncated is left alone,
 * and one an interrupted run left half or fully copied gets the missing copies and its truncation,
 * never a second copy of anything.
 */
export async function migrateLookupKeysByCopies(options: {
  log: CopyingLog;
  keys: Pick<LookupKeys, 'fromUnkeyed'>;
  onProgress?: (progress: Readonly<CopyRenameResult>) => void;
}): Promise<CopyRenameResult> {
  const { log, keys } = options;
  const result: CopyRenameResult = { streams: 0, movedStreams: 0, copiedEvents: 0, truncatedBefore: new Map() };
  // $all keeps truncated events until a scavenge: streams moved before are found again.
  const moves = new Map<string, string>();
  for await (const event of log.readAllOf(LOOKUP_STREAM_OPENERS)) {
    const to = keyedStreamName(keys, event.streamName);
    if (to !== null) moves.set(event.streamName, to);
  }
  for (const [from, to] of moves) {
    result.streams++;
    result.truncatedBefore.set(from, Number.MAX_SAFE_INTEGER);
    const live = await log.readLive(from);
    if (live.length > 0) {
      const moved = await log.readLive(to);
      const copied = new Set(moved.map((event) => event.metadata[LOOKUP_KEY_COPY_OF]));
      if (moved.some((event) => typeof event.metadata[LOOKUP_KEY_COPY_OF] !== 'string')) {
        throw new StreamNameTakenError(from, to);
      }
      const toCopy = live.filter((event) => !copied.has(event.id));
      if (toCopy.length > 0) {
        await log.append(to, toCopy.map(copyOf), moved.at(-1)?.revision ?? 'no_stream');
        result.copiedEvents += toCopy.length;
      }
      await log.truncateBefore(from, live.at(-1)!.revision + 1);
      result.movedStreams++;
    }
    options.onProgress?.(result);
  }
  return result;
}

function copyOf(event: StoredEvent) {
  return {
    id: derivedEventId('lookup-key-copy', event.id),
    type: event.type,
    data: event.data,
    metadata: {
      ...event.metadata,
      [LOOKUP_KEY_COPY_OF]: event.id,
      // A copy the personal-data migration made keeps the time of the event it copied.
      [ORIGINAL_RECORDED_AT]: event.metadata[ORIGINAL_RECORDED_AT] ?? event.recordedAt.toISOString(),
    },
  };
}
