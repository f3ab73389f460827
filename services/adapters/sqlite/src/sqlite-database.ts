import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';

export type SqliteSynchronous = 'FULL' | 'NORMAL';

/**
 * How long a writer waits for another process holding the write lock before SQLITE_BUSY. The wait
 * blocks this process (better-sqlite3 is synchronous), which is why transactions stay short.
 */
const BUSY_TIMEOUT_MS = 5_000;

/*
 * `global_position` is the rowid: appends take max+1 under the write lock, so positions only
 * grow, and since nothing is ever deleted a position is never reused. There is deliberately no
 * index on `type`: every index slows every append, and a type filter scans forward from a
 * checkpoint that a subscription advances past non-matching rows (see sqlite-event-store.ts).
 * Nor on `event_id`: a unique index on random UUIDs halves append throughput, and retries are
 * recognised inside their stream instead (see sqlite-appender.ts), as EventStoreDB does.
 */
const SCHEMA = `
  CREATE TABLE IF NOT EXISTS events (
    global_position INTEGER PRIMARY KEY,
    stream_name     TEXT    NOT NULL,
    stream_revision INTEGER NOT NULL,
    event_id        TEXT    NOT NULL,
    type            TEXT    NOT NULL,
    data            TEXT    NOT NULL,
    metadata        TEXT    NOT NULL,
    recorded_at     INTEGER NOT NULL,
    UNIQUE (stream_name, stream_revision)
  )`;

/**
 * Opens (and creates if needed) a SQLite file that several processes share: WAL lets readers in
 * other processes run while one process writes, the busy timeout makes a writer wait for the
 * lock; `synchronous=FULL` fsyncs the WAL at every commit, so what was acknowledged survives a
 * power cut (NORMAL only survives a process crash). `setUp` creates or upgrades the tables, in
 * one transaction.
 */
export function openSqliteFile(
  path: string,
  { synchronous, setUp }: { synchronous: SqliteSynchronous; setUp(this: void, db: Database.Database): void },
): Database.Database {
  if (synchronous !== 'FULL' && synchronous !== 'NORMAL') {
    throw new Error(`synchronous must be FULL or NORMAL, got ${String(synchronous)}`);
  }
  // Owner-only, as the processes' umask makes the files in it (see @qrshirt/runtime's private-folders.ts).
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const db = new Database(path, { timeout: BUSY_TIMEOUT_MS });
  try {
    useWal(db);
    db.pragma(`synchronous = ${synchronous}`);
    // Under the write lock: two processes upgrading one file at once would both add a column.
    db.transaction(() => setUp(db)).immediate();
  } catch (err) {
    db.close();
    throw err;
  }
  return db;
}

/**
 * Puts the file in WAL mode, which it then keeps. A new file's switch takes a lock of the whole
 * file, and when two connections ask for it at once SQLite answers one SQLITE_BUSY at once,
 * without the busy timeout (waiting would deadlock them): two processes starting on one new
 * data folder (the gateways of `npm run start:distributed`) then failed to start. So the switch
 * is tried again, for as long as a writer waits for the lock.
 */
function useWal(db: Database.Database): void {
  const deadline = Date.now() + BUSY_TIMEOUT_MS;
  for (;;) {
    try {
      db.pragma('journal_mode = WAL');
      return;
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'SQLITE_BUSY' || Date.now() >= deadline) throw error;
      // A synchronous pause, as the busy timeout's own is: the open is synchronous.
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
    }
  }
}

/** Opens (and creates if needed) an event store file. */
export function openEventDatabase(path: string, synchronous: SqliteSynchronous): Database.Database {
  return openSqliteFile(path, { synchronous, setUp: (db) => db.exec(SCHEMA) });
}
