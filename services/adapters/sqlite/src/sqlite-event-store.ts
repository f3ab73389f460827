import type Database from 'better-sqlite3';
import {
  createChangeSignal,
  createSubscriptionRegistry,
  fullyReadPage,
  type EventStore,
  type PolledBatch,
  type ReadAllOptions,
  type ReadFilteredOptions,
  type StoredEvent,
  startPollingSubscription,
} from '@qrshirt/core';
import { createRecentEvents, type RecentEvent } from './recent-events';
import { type CommittedAppend, serializeAppend } from './sqlite-appender';
import { openEventDatabase, type SqliteSynchronous } from './sqlite-database';
import { createSqliteWriter } from './sqlite-writer';

export interface SqliteEventStoreOptions {
  /** A file path (its folder is created if missing), or ':memory:'. */
  path: string;
  /** FULL (default) survives a power cut; NORMAL only a process crash. */
  synchronous?: SqliteSynchronous;
  /** How often subscriptions look for appends made by other processes sharing the file. */
  pollIntervalMs?: number;
  /** How a live subscription gathers small commits under load (see polling-subscription.ts). */
  gather?: { fromEvents: number; ms: number };
}

const DEFAULT_POLL_INTERVAL_MS = 50;
/**
 * Under a crowd of scans the store commits every millisecond or so, about 25 scans at a time, and
 * each projection following the scans committed as often; gathering 20 ms of them made the gateway
 * spend 7 µs less CPU per scan and answer 11% more scans per second (2-core machine, 50
 * connections), for live figures at most 20 ms later. One command's few events are not gathered.
 */
const DEFAULT_GATHER = { fromEvents: 10, ms: 20 };
const DEFAULT_BATCH_SIZE = 500;
/** Events under a stream prefix from which paging walks positions instead of the stream index. */
const PREFIX_PROBE_ROWS = 10_000;
/** Events this store wrote that its subscriptions may take without reading them back (see recent-events.ts). */
const RECENT_EVENTS = 10_000;
/** SQLite's LIMIT for "no limit". */
const NO_LIMIT = -1;

const COLUMNS = 'global_position, stream_name, stream_revision, event_id, type, data, metadata, recorded_at';
type EventRow = [
  globalPosition: number,
  streamName: string,
  revision: number,
  id: string,
  type: string,
  data: string,
  metadata: string,
  recordedAt: number,
];

function toStoredEvent(row: EventRow): StoredEvent {
  return {
    id: row[3],
    streamName: row[1],
    revision: row[2],
    globalPosition: row[0],
    type: row[4],
    data: JSON.parse(row[5]),
    // Most events carry no metadata; skipping the parse is a measurable share of a read.
    metadata: row[6] === '{}' ? {} : (JSON.parse(row[6]) as Record<string, unknown>),
    recordedAt: new Date(row[7]),
  };
}

/** An event this store wrote, exactly as reading its row back would give it. */
function recentToStoredEvent({ append, index, globalPosition, revision, recordedAt }: RecentEvent): StoredEvent {
  return toStoredEvent([
    globalPosition,
    append.streamName,
    revision,
    append.ids[index]!,
    append.types[index]!,
    append.data[index]!,
    append.metadata[index]!,
    recordedAt,
  ]);
}

export function createSqliteEventStore(options: SqliteEventStoreOptions): EventStore {
  const synchronous = options.synchronous ?? 'FULL';
  // This connection reads; the writer commits (in a thread of its own for a file).
  const db = openEventDatabase(options.path, synchronous);
  const writer = createSqliteWriter({ path: options.path, synchronous, db });
  const pollIntervalMs = options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS;
  const gather = options.gather ?? DEFAULT_GATHER;
  const changes = createChangeSignal();
  const recent = createRecentEvents(RECENT_EVENTS, recentToStoredEvent);
  const subscriptions = createSubscriptionRegistry();
  /** Appends given to the writer whose answer has not arrived: what they wrote may already be in the file. */
  let awaitingAnswers = 0;
  let closed = false;

  const selectStream = db
    .prepare(
      `SELECT ${COLUMNS} FROM events WHERE stream_name = ? AND stream_revision >= ?
       ORDER BY stream_revision LIMIT ?`,
    )
    .raw();
  const selectLast = db
    .prepare(`SELECT ${COLUMNS} FROM events WHERE stream_name = ? ORDER BY stream_revision DESC LIMIT 1`)
    .raw();
  const selectAfter = db
    .prepare(`SELECT ${COLUMNS} FROM events WHERE global_position > ? ORDER BY global_position LIMIT ?`)
    .raw();
  const selectHead = db.prepare('SELECT MAX(global_position) FROM events').pluck();
  // One statement per number of types filtered on, prepared on first use.
  const selectTypedByArity = new Map<number, Database.Statement>();

  function selectTyped(arity: number): Database.Statement {
    let statement = selectTypedByArity.get(arity);
    if (!statement) {
      const placeholders = new Array<string>(arity).fill('?').join(', ');
      statement = db
        .prepare(
          `SELECT ${COLUMNS} FROM events
           WHERE global_position > ? AND global_position <= ? AND type IN (${placeholders})
           ORDER BY global_position LIMIT ?`,
        )
        .raw();
      selectTypedByArity.set(arity, statement);
    }
    return statement;
  }

  const probePrefix = db
    .prepare('SELECT COUNT(*) FROM (SELECT 1 FROM events WHERE stream_name >= ? AND stream_name < ? LIMIT ?)')
    .pluck();
  // One statement per combination of filters (and number of types), prepared on first use.
  const selectFilteredBy = new Map<string, Database.Statement>();

  function readFiltered(filter: ReadFilteredOptions, types: readonly string[] | undefined): StoredEvent[] {
    const clauses: string[] = [];
    const params: unknown[] = [];
    if (filter.streamPrefix !== undefined) {
      // Every name starting with the prefix sorts between it and it followed by the largest code
      // point: a range the (stream_name, stream_revision) index answers, where LIKE would scan.
      const range = [filter.streamPrefix, `${filter.streamPrefix}\u{10FFFF}`];
      // The index then feeds a sort by position, which is quick for a few thousand streams'
      // events (`waitlist-`) but slow for most of the log (`scans-`): there, walking positions
      // in order and skipping the others finds a page sooner. A unary + keeps SQLite off the index.
      const broad = (probePrefix.get(...range, PREFIX_PROBE_ROWS) as number) >= PREFIX_PROBE_ROWS;
      clauses.push(broad ? '+stream_name >= ? AND +stream_name < ?' : 'stream_name >= ? AND stream_name < ?');
      params.push(...range);
    }
    if (types !== undefined) {
      clauses.push(`type IN (${new Array<string>(types.length).fill('?').join(', ')})`);
      params.push(...types);
    }
    if (filter.recordedFrom !== undefined) {
      clauses.push('recorded_at >= ?');
      params.push(filter.recordedFrom.getTime());
    }
    if (filter.recordedBefore !== undefined) {
      clauses.push('recorded_at < ?');
      params.push(filter.recordedBefore.getTime());
    }
    const backwards = filter.direction === 'backwards';
    if (filter.cursor !== undefined) {
      clauses.push(backwards ? 'global_position < ?' : 'global_position > ?');
      params.push(filter.cursor);
    }
    const sql = `SELECT ${COLUMNS} FROM events ${clauses.length > 0 ? `WHERE ${clauses.join(' AND ')}` : ''}
       ORDER BY global_position ${backwards ? 'DESC' : 'ASC'} LIMIT ?`;
    let statement = selectFilteredBy.get(sql);
    if (!statement) {
      statement = db.prepare(sql).raw();
      selectFilteredBy.set(sql, statement);
    }
    return (statement.all(...params, filter.maxCount) as EventRow[]).map(toStoredEvent);
  }

  function head(): number {
    return (selectHead.get() as number | null) ?? 0;
  }

  function readAfter(
    after: number,
    maxCount: number,
    upTo: number,
    types: readonly string[] | undefined,
  ): StoredEvent[] {
    const rows = (
      types === undefined
        ? selectAfter.all(after, maxCount)
        : selectTyped(types.length).all(after, upTo, ...types, maxCount)
    ) as EventRow[];
    return rows.map(toStoredEvent);
  }

  function assertOpen(): void {
    if (closed) throw new Error('The event store is closed');
  }

  return {
    // Each append takes max + 1 and nothing is deleted: positions count the events.
    positionUnit: 'events',
    async appendToStream(streamName, events, appendOptions) {
      assertOpen();
      const append = serializeAppend(streamName, events, appendOptions?.expectedRevision ?? 'any');
      awaitingAnswers++;
      let committed: CommittedAppend;
      try {
        committed = await writer.append(append);
      } finally {
        awaitingAnswers--;
      }
      if (committed.written) {
        recent.add(append, committed);
        changes.notify();
      }
      return { nextExpectedRevision: committed.nextExpectedRevision, lastGlobalPosition: committed.lastGlobalPosition };
    },

    async readStream(streamName, readOptions) {
      assertOpen();
      const rows = selectStream.all(
        streamName,
        readOptions?.fromRevision ?? 0,
        readOptions?.maxCount ?? NO_LIMIT,
      ) as EventRow[];
      return rows.map(toStoredEvent);
    },

    async readLastEvent(streamName) {
      assertOpen();
      const row = selectLast.get(streamName) as EventRow | undefined;
      return row && toStoredEvent(row);
    },

    async readAll(readOptions: ReadAllOptions = {}) {
      assertOpen();
      const types = distinctTypes(readOptions.eventTypes);
      if (types?.length === 0) return [];
      return readAfter(readOptions.after ?? 0, readOptions.maxCount ?? NO_LIMIT, Number.MAX_SAFE_INTEGER, types);
    },

    async readFiltered(filter) {
      assertOpen();
      const types = distinctTypes(filter.eventTypes);
      if (types?.length === 0 || filter.maxCount <= 0) return { events: [], next: undefined };
      return fullyReadPage(readFiltered(filter, types), filter.maxCount);
    },

    subscribe(subscribeOptions) {
      assertOpen();
      const types = distinctTypes(subscribeOptions.eventTypes);
      const typeSet = types && new Set(types);
      const read = (after: number, maxCount: number): PolledBatch => {
        // Bounded by the head read first, so a short answer proves nothing up to it matched and the
        // next read can start there instead of rescanning a long run of other types.
        const upTo = head();
        const fromMemory = recent.read(after, upTo, typeSet, maxCount, awaitingAnswers > 0);
        if (fromMemory) return fromMemory;
        if (types === undefined) {
          const events = readAfter(after, maxCount, 0, undefined);
          return { events, scannedTo: events.at(-1)?.globalPosition ?? after };
        }
        const events = types.length === 0 ? [] : readAfter(after, maxCount, upTo, types);
        const scannedTo = events.length < maxCount ? Math.max(after, upTo) : events.at(-1)!.globalPosition;
        return { events, scannedTo };
      };
      return subscriptions.track(
        startPollingSubscription({
          after: subscribeOptions.after ?? 0,
          batchSize: subscribeOptions.batchSize ?? DEFAULT_BATCH_SIZE,
          pollIntervalMs,
          gather,
          onEvents: subscribeOptions.onEvents,
          read,
          changes,
        }),
      );
    },

    async headPosition() {
      assertOpen();
      return head();
    },

    async close() {
      if (closed) return;
      closed = true;
      await subscriptions.stopAll();
      // Appends already accepted are committed, not dropped.
      await writer.close();
      db.close();
    },
  };
}

/** `undefined` means every type; an empty list matches nothing. */
function distinctTypes(types: readonly string[] | undefined): string[] | undefined {
  return types === undefined ? undefined : [...new Set(types)];
}
