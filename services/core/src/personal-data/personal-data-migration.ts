import { personalDataFields, personalDataSubject } from '@qrshirt/contracts';
import { derivedEventId } from '../kit/derived-event-id';
import type { EventStore, StoredEvent } from '../kit/event-store';
import { COPY_OF, type CopyingLog, ORIGINAL_RECORDED_AT } from '../kit/copying-log';
import type { PersonalDataKeys } from '../ports/personal-data-keys';
import { newPersonalDataKey, openValue, sealValue, sealedSubject } from './sealed-value';

/*
 * `npm run migrate-personal-data`: the one sanctioned rewrite of the log. Events stored before
 * personal data was sealed hold names and emails in clear; this seals them under their person's
 * key, as `withPersonalData` seals every append since. A log that can be rewritten in place
 * (SQLite) is rewritten position by position; one that cannot (EventStoreDB) gets sealed copies
 * of each such stream, and the originals are truncated.
 */

/** The event types holding personal fields: the only ones the migration needs to read. */
export const personalDataEventTypes: readonly string[] = Object.keys(personalDataFields);

export interface ClearDataSealer {
  /**
   * The event's data with every personal field stored in clear sealed under its person's key;
   * undefined when there is none (already sealed, or no personal data), so a rerun changes nothing.
   */
  sealClear(type: string, data: unknown): Promise<unknown>;
}

export function createClearDataSealer({ keys }: { keys: PersonalDataKeys }): ClearDataSealer {
  return {
    async sealClear(type, data) {
      const subject = personalDataSubject(type, data);
      const fields = Object.keys(personalDataFields[type as keyof typeof personalDataFields] ?? {});
      if (subject === undefined || fields.length === 0) return undefined;
      const record = data as Record<string, unknown>;
      const strings = fields.filter((field) => typeof record[field] === 'string');
      if (strings.length === 0) return undefined;
      // The key is fetched only now, so a log already sealed creates no key for anyone.
      const stored = await keys.personalDataKey(subject, newPersonalDataKey());
      const clear = strings.filter((field) => !isSealedFor(record[field] as string, subject, stored));
      if (clear.length === 0) return undefined;
      // A person erased before the migration: sealed under a key nobody keeps, their data reads
      // as null, as everything else of theirs already does.
      const key = stored ?? newPersonalDataKey();
      const sealed = { ...record };
      for (const field of clear) sealed[field] = sealValue(key, subject, record[field] as string);
      return sealed;
    },
  };
}

/**
 * Sealed under this subject's key. A value that only looks sealed (someone typed it in before
 * sealing existed) does not open, and is sealed like any other clear value.
 */
function isSealedFor(value: string, subject: string, key: Buffer | null): boolean {
  if (sealedSubject(value) !== subject) return false;
  if (key === null) return true;
  try {
    openValue(key, value);
    return true;
  } catch {
    return false;
  }
}

export interface MigrationProgress {
  /** Global position of the last event examined, and the log's head when the run started. */
  position: number;
  head: number;
  examined: number;
  rewritten: number;
}

/** A log whose events' data can be replaced where they stand (the SQLite store). */
export interface RewritableLog {
  /** Where the last run stopped (the last position it finished, 0 for none) and what every run rewrote. */
  resumeAfter(): Promise<{ after: number; rewritten: number; finished: boolean }>;
  headPosition(): Promise<number>;
  /** Events of the given types after a position, oldest first. */
  readAfter(after: number, maxCount: number, types: readonly string[]): Promise<StoredEvent[]>;
  /**
   * Replaces the data of these events and records `through` as done, atomically: a run killed
   * between two batches resumes after the last one committed.
   */
  rewrite(changes: readonly { globalPosition: number; data: unknown }[], through: number): Promise<void>;
  /** Marks the run finished, once no event up to `through` holds personal data in clear. */
  finish(through: number): Promise<void>;
}

export interface InPlaceMigrationResult {
  /** The position an interrupted run had reached, when this run resumed it. */
  resumedAfter: number | undefined;
  /** A run had finished already: this one checked the whole log again. */
  wasFinished: boolean;
  examined: number;
  /** By this run; `rewrittenInAll` counts every earlier run too. */
  rewritten: number;
  rewrittenInAll: number;
  head: number;
}

/**
 * Seals every clear personal field in the log, a batch per transaction. After a finished run a
 * rerun checks the whole log again (and finds nothing to do); after an interrupted one it
 * resumes where that one stopped.
 */
export async function migrateLogInPlace(options: {
  log: RewritableLog;
  sealer: ClearDataSealer;
  batchSize: number;
  onProgress?: (progress: MigrationProgress) => void;
}): Promise<InPlaceMigrationResult> {
  const { log, sealer, batchSize } = options;
  const state = await log.resumeAfter();
  const resumedAfter = !state.finished && state.after > 0 ? state.after : undefined;
  let position = state.finished ? 0 : state.after;
  const head = await log.headPosition();
  let examined = 0;
  let rewritten = 0;
  for (;;) {
    const events = await log.readAfter(position, batchSize, personalDataEventTypes);
    const last = events.at(-1);
    // Appends after the start (there should be none: the product is stopped) are looked at too.
    if (!last) break;
    // At once: with keys in Redis the round trips overlap; the keys port gives every caller of
    // one subject the same key.
    const sealed = await Promise.all(events.map((event) => sealer.sealClear(event.type, event.data)));
    const changes = events.flatMap((event, i) =>
      sealed[i] === undefined ? [] : [{ globalPosition: event.globalPosition, data: sealed[i] }],
    );
    await log.rewrite(changes, last.globalPosition);
    position = last.globalPosition;
    examined += events.length;
    rewritten += changes.length;
    options.onProgress?.({ position, head: Math.max(head, position), examined, rewritten });
  }
  await log.finish(Math.max(position, head));
  return {
    resumedAfter,
    wasFinished: state.finished,
    examined,
    rewritten,
    rewrittenInAll: state.rewritten + rewritten,
    head,
  };
}

export interface CopyMigrationResult {
  streams: number;
  /** Streams given sealed copies by this run. */
  rewrittenStreams: number;
  copiedEvents: number;
  /** Streams an interrupted run had begun copying, completed and truncated by this one. */
  completedStreams: number;
  /**
   * Events with personal fields that streams no longer return but the log still holds, until a
   * scavenge: read models must not be rebuilt before it, or they would hold them twice.
   */
  awaitingScavenge: number;
  /** Where each truncated stream now starts, for `withoutTruncated`. */
  truncatedBefore: Map<string, number>;
}

/**
 * Gives each stream holding clear personal data sealed copies of all its live events (a
 * truncation hides everything before it, so the stream's whole history is copied, in order)
 * and truncates it before them. Idempotent: a stream whose live events are all sealed is left
 * alone, and one an interrupted run left with some or all of its copies gets the missing ones
 * and its truncation, never a second copy of anything.
 */
export async function migrateLogByCopies(options: {
  log: CopyingLog;
  sealer: ClearDataSealer;
  onProgress?: (progress: Readonly<CopyMigrationResult>) => void;
}): Promise<CopyMigrationResult> {
  const { log, sealer } = options;
  const result: CopyMigrationResult = {
    streams: 0,
    rewrittenStreams: 0,
    copiedEvents: 0,
    completedStreams: 0,
    awaitingScavenge: 0,
    truncatedBefore: new Map(),
  };
  const inLog = new Map<string, Set<string>>();
  for await (const event of log.readAllOf(personalDataEventTypes)) {
    const ids = inLog.get(event.streamName);
    if (ids) ids.add(event.id);
    else inLog.set(event.streamName, new Set([event.id]));
  }
  for (const [streamName, ids] of inLog) {
    result.streams++;
    const live = await log.readLive(streamName);
    const firstCopy = live.findIndex((event) => typeof event.metadata[COPY_OF] === 'string');
    const originals = firstCopy === -1 ? live : live.slice(0, firstCopy);
    // A run killed mid-append (a large one goes in several requests) left the first copies only.
    const copied = new Set(live.slice(originals.length).map((event) => event.metadata[COPY_OF]));
    const toCopy = originals.filter((event) => !copied.has(event.id));
    const sealed = await Promise.all(toCopy.map((event) => sealer.sealClear(event.type, event.data)));
    const liveIds = new Set(live.map((event) => event.id));
    let hidden = 0;
    for (const id of ids) if (!liveIds.has(id)) hidden++;
    // Truncated by an earlier run: the stream starts at its first live event.
    if (hidden > 0 && live.length > 0) result.truncatedBefore.set(streamName, live[0]!.revision);
    result.awaitingScavenge += hidden;
    if (firstCopy === -1 && sealed.every((data) => data === undefined)) {
      options.onProgress?.(result);
      continue;
    }
    if (toCopy.length > 0) {
      const copies = toCopy.map((event, i) => ({
        id: derivedEventId('personal-data-copy', event.id),
        type: event.type,
        data: sealed[i] ?? event.data,
        metadata: { ...event.metadata, [COPY_OF]: event.id, [ORIGINAL_RECORDED_AT]: event.recordedAt.toISOString() },
      }));
      await log.append(streamName, copies, live.at(-1)!.revision);
      result.copiedEvents += copies.length;
    }
    if (originals.length > 0) {
      await log.truncateBefore(streamName, originals.at(-1)!.revision + 1);
      result.truncatedBefore.set(streamName, originals.at(-1)!.revision + 1);
      result.awaitingScavenge += originals.filter((event) => ids.has(event.id)).length;
      if (firstCopy === -1) result.rewrittenStreams++;
      else result.completedStreams++;
    }
    options.onProgress?.(result);
  }
  return result;
}

/**
 * The log as its streams read after a migration by copies: $all keeps the originals a truncation
 * hides until the server's scavenge deletes them, and read models rebuilt from it would count
 * each such event twice. This view of $all leaves them out.
 */
export function withoutTruncated(store: EventStore, truncatedBefore: ReadonlyMap<string, number>): EventStore {
  const visible = (event: StoredEvent): boolean => event.revision >= (truncatedBefore.get(event.streamName) ?? 0);
  return {
    ...store,
    async readAll(options = {}) {
      let after = options.after;
      for (;;) {
        const page = await store.readAll({ ...options, ...(after !== undefined && { after }) });
        const kept = page.filter(visible);
        const last = page.at(-1);
        // An empty answer means the end: a page of hidden events only is read past.
        const ended = !last || options.maxCount === undefined || page.length < options.maxCount;
        if (kept.length > 0 || ended) return kept;
        after = last.globalPosition;
      }
    },
    async readFiltered(options) {
      const page = await store.readFiltered(options);
      return { ...page, events: page.events.filter(visible) };
    },
    subscribe: (options) =>
      store.subscribe({ ...options, onEvents: (events) => options.onEvents(events.filter(visible)) }),
  };
}
