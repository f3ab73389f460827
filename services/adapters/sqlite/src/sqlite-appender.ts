import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { AppendResult, ExpectedRevision, NewEvent } from '@qrshirt/core';
import { assertExpectedRevision, assertValidExpectedRevision } from '@qrshirt/core';

/**
 * One appendToStream call, checked and serialised by the caller's thread: a bad payload fails its
 * own call only, later mutation by the caller cannot change what gets written, and it is what
 * crosses to the writer thread (structured-cloneable: strings, numbers, booleans).
 */
export interface SerializedAppend {
  streamName: string;
  expected: ExpectedRevision;
  ids: string[];
  /** Whether the caller chose the ids: only then can this append be a retry of an earlier one. */
  callerIds: boolean;
  types: string[];
  data: string[];
  metadata: string[];
}

/** What a committed append answers, and what the log now holds because of it. */
export interface CommittedAppend extends AppendResult {
  /** False for a retry recognised where its first attempt wrote: nothing was written this time. */
  written: boolean;
  /** The commit's time, the `recorded_at` of each event written (ms since epoch). */
  recordedAt: number;
}

export function serializeAppend(
  streamName: string,
  events: readonly NewEvent[],
  expected: ExpectedRevision,
): SerializedAppend {
  if (events.length === 0) throw new Error(`Append to ${streamName}: no events given`);
  assertValidExpectedRevision(expected);
  const count = events.length;
  const append: SerializedAppend = {
    streamName,
    expected,
    ids: new Array<string>(count),
    callerIds: events.some((event) => event.id !== undefined),
    types: new Array<string>(count),
    data: new Array<string>(count),
    metadata: new Array<string>(count),
  };
  for (let i = 0; i < count; i++) {
    const event = events[i]!;
    append.ids[i] = event.id ?? randomUUID();
    append.types[i] = event.type;
    append.data[i] = JSON.stringify(event.data) ?? 'null';
    append.metadata[i] = event.metadata === undefined ? '{}' : JSON.stringify(event.metadata);
  }
  return append;
}

/** One append waiting for the next group commit. */
interface PendingAppend extends SerializedAppend {
  resolve(result: CommittedAppend): void;
  reject(error: unknown): void;
}

type Outcome = { ok: true; result: CommittedAppend } | { ok: false; error: unknown };

interface SqliteAppender {
  append(append: SerializedAppend): Promise<CommittedAppend>;
  /** Commits what is queued now instead of on the next turn of the event loop. */
  flush(): void;
}

/**
 * Group commit: every append queued during one turn of the event loop is committed in one
 * transaction, so they share one fsync. In the writer thread (sqlite-writer.ts) that is every
 * append that reached it while it committed the batch before.
 * Each append is still checked on its own and fails alone, without writing anything.
 */
export function createSqliteAppender(db: Database.Database): SqliteAppender {
  const insertEvent = db.prepare(
    `INSERT INTO events (stream_name, stream_revision, event_id, type, data, metadata, recorded_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  const lastRevision = db
    .prepare('SELECT stream_revision FROM events WHERE stream_name = ? ORDER BY stream_revision DESC LIMIT 1')
    .pluck();
  const idsFrom = db
    .prepare(
      `SELECT event_id, global_position FROM events
       WHERE stream_name = ? AND stream_revision >= ? ORDER BY stream_revision LIMIT ?`,
    )
    .raw();

  function insertAll(req: PendingAppend, firstRevision: number, recordedAt: number): number {
    let position = 0;
    for (let i = 0; i < req.ids.length; i++) {
      const info = insertEvent.run(
        req.streamName,
        firstRevision + i,
        req.ids[i],
        req.types[i],
        req.data[i],
        req.metadata[i],
        recordedAt,
      );
      position = Number(info.lastInsertRowid);
    }
    return position;
  }

  /**
   * Everything that could refuse an append is checked before its first insert, so a refused append
   * writes nothing without needing a savepoint (which would copy every page it touches).
   */
  function appendOne(req: PendingAppend, recordedAt: number): CommittedAppend {
    const current = lastRevision.get(req.streamName) as number | undefined;
    if (req.callerIds) {
      const retried = earlierAppend(req, current);
      if (retried) return { ...retried, written: false, recordedAt };
      if (new Set(req.ids).size !== req.ids.length) {
        throw new Error(`Append to ${req.streamName}: the same event id appears twice in the call`);
      }
    }
    assertExpectedRevision(req.streamName, req.expected, current);
    const firstRevision = current === undefined ? 0 : current + 1;
    try {
      const lastGlobalPosition = insertAll(req, firstRevision, recordedAt);
      return {
        nextExpectedRevision: firstRevision + req.ids.length - 1,
        lastGlobalPosition,
        written: true,
        recordedAt,
      };
    } catch (error) {
      // Not a refusal but a failure (I/O, or a check above missed a case): the batch's
      // transaction may hold part of this append, so none of the batch may be committed.
      throw new BatchAborted(error);
    }
  }

  /**
   * A retry after a lost answer, recognised where the first attempt must have written: right
   * after its expected revision, or for 'any' and 'stream_exists' at the stream's end (so such a
   * retry is recognised only if nothing else was appended meanwhile, as in EventStoreDB).
   * Answered as the first time; undefined when these events are not there.
   */
  function earlierAppend(req: PendingAppend, current: number | undefined): AppendResult | undefined {
    if (current === undefined) return undefined;
    const count = req.ids.length;
    const { expected } = req;
    const first = expected === 'no_stream' ? 0 : typeof expected === 'number' ? expected + 1 : current - count + 1;
    if (first < 0 || first > current) return undefined;
    const stored = idsFrom.all(req.streamName, first, count) as [string, number][];
    if (stored[0]?.[0] !== req.ids[0]) return undefined;
    if (stored.length < count || !stored.every((row, i) => row[0] === req.ids[i])) {
      throw new Error(
        `Append to ${req.streamName}: only some of its event ids are already stored, or in another order; ` +
          'a retry must resend exactly the same events',
      );
    }
    return { nextExpectedRevision: first + count - 1, lastGlobalPosition: stored[count - 1]![1] };
  }

  const commitBatch = db.transaction((batch: PendingAppend[], recordedAt: number): Outcome[] => {
    const outcomes: Outcome[] = [];
    for (const req of batch) {
      try {
        outcomes.push({ ok: true, result: appendOne(req, recordedAt) });
      } catch (error) {
        if (error instanceof BatchAborted) throw error.cause;
        // Some errors (I/O, disk full) make SQLite roll back the whole transaction; the rest of the
        // batch must then fail too rather than run unprotected in autocommit mode.
        if (!db.inTransaction) throw error;
        outcomes.push({ ok: false, error });
      }
    }
    return outcomes;
  });

  let queue: PendingAppend[] = [];
  let scheduled = false;

  function flush(): void {
    scheduled = false;
    const batch = queue;
    queue = [];
    if (batch.length === 0) return;
    let outcomes: Outcome[];
    try {
      // IMMEDIATE takes the write lock up front, so writers in other processes queue on
      // busy_timeout instead of failing when a read lock cannot be upgraded.
      outcomes = commitBatch.immediate(batch, Date.now());
    } catch (error) {
      for (const req of batch) req.reject(error);
      return;
    }
    for (let i = 0; i < batch.length; i++) {
      const outcome = outcomes[i]!;
      if (outcome.ok) batch[i]!.resolve(outcome.result);
      else batch[i]!.reject(outcome.error);
    }
  }

  function append(serialized: SerializedAppend): Promise<CommittedAppend> {
    return new Promise<CommittedAppend>((resolve, reject) => {
      queue.push({ ...serialized, resolve, reject });
      if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    });
  }

  return { append, flush };
}

/** Rolls back the whole group commit; each of its appends is rejected with the cause. */
class BatchAborted extends Error {
  constructor(cause: unknown) {
    super('The group commit was aborted', { cause });
  }
}
