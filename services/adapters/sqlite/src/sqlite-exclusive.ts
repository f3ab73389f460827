import Database from 'better-sqlite3';

/** How long opening waits for another process to let go of the file before saying it is in use. */
const LOCK_WAIT_MS = 2_000;

export class SqliteFileInUseError extends Error {
  constructor(readonly path: string) {
    super(`${path} is in use by another process: stop the product (npm start, ingestor, projector) first`);
    this.name = 'SqliteFileInUseError';
  }
}

/**
 * Opens a SQLite file for this process alone: an exclusive lock taken now and held until close,
 * so a gateway still running on the file is detected (SqliteFileInUseError) and one started
 * meanwhile waits or fails instead of reading half-rewritten data. `secure_delete` zeroes what
 * updates and deletes free, so replaced values do not linger in free pages.
 */
export function openSqliteFileExclusively(path: string): Database.Database {
  const db = new Database(path, { fileMustExist: true, timeout: LOCK_WAIT_MS });
  try {
    db.pragma('locking_mode = EXCLUSIVE');
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.pragma('secure_delete = ON');
    // In WAL mode the exclusive lock is taken by the first write transaction: take it now.
    db.exec('BEGIN EXCLUSIVE; COMMIT');
  } catch (error) {
    db.close();
    if ((error as { code?: unknown }).code === 'SQLITE_BUSY') throw new SqliteFileInUseError(path);
    throw error;
  }
  return db;
}

/**
 * Leaves no copy of replaced or deleted data in the file or its write-ahead log: VACUUM writes
 * the live rows into fresh pages (the old ones are overwritten or cut off), and the TRUNCATE
 * checkpoint moves the log into the file and empties it.
 */
export function compactSqliteFile(db: Database.Database): void {
  db.exec('VACUUM');
  const [result] = db.pragma('wal_checkpoint(TRUNCATE)') as { busy: number }[];
  if (result?.busy) throw new SqliteFileInUseError(db.name);
}

/** Throws SqliteFileInUseError while another process has the file open (a running product). */
export function assertSqliteFileFree(path: string): void {
  openSqliteFileExclusively(path).close();
}
