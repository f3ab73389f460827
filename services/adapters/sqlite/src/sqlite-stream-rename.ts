import { type RenamableLog, StreamNameTakenError } from '@qrshirt/core';
import { compactSqliteFile, openSqliteFileExclusively } from './sqlite-exclusive';

/*
 * One row: what the lookup-key migration renamed in all, and whether a run finished. Written in
 * the transaction of the batch it counts.
 */
const SCHEMA = `
  CREATE TABLE IF NOT EXISTS lookup_key_migration (
    id          INTEGER PRIMARY KEY CHECK (id = 1),
    renamed     INTEGER NOT NULL,
    finished_at INTEGER
  )`;

/**
 * The SQLite event store as the lookup-key migration renames its streams: in place, each event
 * keeping its position, revision, id, type, data, metadata and time, so the read models, which
 * hold no stream names, stay as they are. The product must be stopped.
 */
export function openSqliteRenamableLog(path: string): RenamableLog & { close(): void } {
  const db = openSqliteFileExclusively(path);
  db.exec(SCHEMA);
  const state = db.prepare<[], { renamed: number; finished_at: number | null }>(
    'SELECT renamed, finished_at FROM lookup_key_migration WHERE id = 1',
  );
  // Every stream has a revision 0: one index entry per stream, read off the (name, revision) index.
  const names = db
    .prepare<[string, string, number], string>(
      `SELECT stream_name FROM events WHERE stream_name > ? AND stream_name < ? AND stream_revision = 0
       ORDER BY stream_name LIMIT ?`,
    )
    .pluck();
  const taken = db.prepare<[string], number>('SELECT 1 FROM events WHERE stream_name = ? LIMIT 1').pluck();
  const renameStream = db.prepare('UPDATE events SET stream_name = ? WHERE stream_name = ?');
  const count = db.prepare(
    `INSERT INTO lookup_key_migration (id, renamed, finished_at) VALUES (1, ?, NULL)
     ON CONFLICT (id) DO UPDATE SET renamed = renamed + excluded.renamed, finished_at = NULL`,
  );
  const markFinished = db.prepare('UPDATE lookup_key_migration SET finished_at = ? WHERE id = 1');

  const rename = db.transaction((renames: readonly { from: string; to: string }[]) => {
    for (const { from, to } of renames) {
      if (taken.get(to) !== undefined) throw new StreamNameTakenError(from, to);
      renameStream.run(to, from);
    }
    count.run(renames.length);
  });

  return {
    async progress() {
      const row = state.get();
      return { renamed: row?.renamed ?? 0, finished: row?.finished_at != null };
    },
    async streamNames(prefix, after, maxCount) {
      return names.all(after, `${prefix}\u{10FFFF}`, maxCount);
    },
    async rename(renames) {
      rename.immediate(renames);
    },
    async finish() {
      // The old names linger in freed pages of the file and its index until it is rewritten.
      compactSqliteFile(db);
      count.run(0);
      markFinished.run(Date.now());
      db.pragma('wal_checkpoint(TRUNCATE)');
    },
    close() {
      db.close();
    },
  };
}
