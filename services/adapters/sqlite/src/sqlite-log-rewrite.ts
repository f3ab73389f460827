import type Database from 'better-sqlite3';
import type { RewritableLog, StoredEvent } from '@qrshirt/core';
import { compactSqliteFile, openSqliteFileExclusively } from './sqlite-exclusive';

/*
 * One row: how far the personal-data migration got. It is written in the same transaction as
 * the batch it accounts for, so a killed run resumes after the last batch committed.
 */
const SCHEMA = `
  CREATE TABLE IF NOT EXISTS personal_data_migration (
    id          INTEGER PRIMARY KEY CHECK (id = 1),
    position    INTEGER NOT NULL,
    rewritten   INTEGER NOT NULL,
    finished_at INTEGER
  )`;

type Row = [
  position: number,
  stream: string,
  revision: number,
  id: string,
  type: string,
  data: string,
  metadata: string,
  at: number,
];

/**
 * The SQLite event store as the personal-data migration rewrites it: in place, keeping every
 * event's position, stream, revision, id, type, metadata and time (nothing in the store depends
 * on the bytes of `data`: no hash chain, no stored length). The product must be stopped.
 */
export function openSqliteRewritableLog(path: string): RewritableLog & { close(): void } {
  const db = openSqliteFileExclusively(path);
  db.exec(SCHEMA);
  const state = db.prepare<[], { position: number; rewritten: number; finished_at: number | null }>(
    'SELECT position, rewritten, finished_at FROM personal_data_migration WHERE id = 1',
  );
  const head = db.prepare('SELECT MAX(global_position) FROM events').pluck();
  const update = db.prepare('UPDATE events SET data = ? WHERE global_position = ?');
  const saveProgress = db.prepare(
    `INSERT INTO personal_data_migration (id, position, rewritten, finished_at) VALUES (1, @position, @rewritten, NULL)
     ON CONFLICT (id) DO UPDATE SET position = excluded.position, rewritten = rewritten + excluded.rewritten,
       finished_at = NULL`,
  );
  const markFinished = db.prepare('UPDATE personal_data_migration SET position = ?, finished_at = ? WHERE id = 1');
  const selectByArity = new Map<number, Database.Statement>();

  const rewrite = db.transaction((changes: readonly { globalPosition: number; data: unknown }[], through: number) => {
    for (const change of changes) update.run(JSON.stringify(change.data), change.globalPosition);
    saveProgress.run({ position: through, rewritten: changes.length });
  });

  return {
    async resumeAfter() {
      const row = state.get();
      return { after: row?.position ?? 0, rewritten: row?.rewritten ?? 0, finished: row?.finished_at != null };
    },
    async headPosition() {
      return (head.get() as number | null) ?? 0;
    },
    async readAfter(after, maxCount, types) {
      if (types.length === 0) return [];
      let select = selectByArity.get(types.length);
      if (!select) {
        select = db
          .prepare(
            `SELECT global_position, stream_name, stream_revision, event_id, type, data, metadata, recorded_at
             FROM events WHERE global_position > ? AND type IN (${types.map(() => '?').join(', ')})
             ORDER BY global_position LIMIT ?`,
          )
          .raw();
        selectByArity.set(types.length, select);
      }
      return (select.all(after, ...types, maxCount) as Row[]).map((row): StoredEvent => ({
        globalPosition: row[0],
        streamName: row[1],
        revision: row[2],
        id: row[3],
        type: row[4],
        data: JSON.parse(row[5]),
        metadata: JSON.parse(row[6]) as Record<string, unknown>,
        recordedAt: new Date(row[7]),
      }));
    },
    async rewrite(changes, through) {
      rewrite.immediate(changes, through);
    },
    async finish(through) {
      // Compacted before the run counts as finished: a run killed while compacting compacts again.
      compactSqliteFile(db);
      if (!state.get()) saveProgress.run({ position: through, rewritten: 0 });
      markFinished.run(through, Date.now());
      db.pragma('wal_checkpoint(TRUNCATE)');
    },
    close() {
      db.close();
    },
  };
}
