import type Database from 'better-sqlite3';
import {
  type ProjectionStore,
  type ReadModelOp,
  type ReadModelStore,
  ReadModelValueError,
  ReadModelVersionError,
} from '@qrshirt/projections';
import { existsSync } from 'node:fs';
import { openSqliteFile } from './sqlite-database';
import { compactSqliteFile, openSqliteFileExclusively } from './sqlite-exclusive';

export interface SqliteReadModelStoreOptions {
  /** The database file (created if missing), or ':memory:'. */
  path: string;
}

/*
 * One row per string, per hash field and per set member. A string's field is '', a set member's
 * value is ''. `kind` tells them apart, so an op or a read on a key of another kind is refused
 * as the other adapters refuse it. The key leads the primary key after the projection and its
 * version, so every read and write of one key is a range of one index, and dropping a version is
 * one range delete. WITHOUT ROWID: the rows live in that index, with no second copy.
 *
 * `read_model_projections` holds each projection's active version and the last version created
 * (a projection without a row is at version 1 of 1); `read_model_checkpoints` one checkpoint per
 * version, committed in the same transaction as the rows it accounts for.
 */
const SCHEMA = `
  CREATE TABLE IF NOT EXISTS read_model_projections (
    name         TEXT    PRIMARY KEY,
    active       INTEGER NOT NULL,
    last_created INTEGER NOT NULL
  ) WITHOUT ROWID;
  CREATE TABLE IF NOT EXISTS read_model_checkpoints (
    projection TEXT    NOT NULL,
    version    INTEGER NOT NULL,
    position   INTEGER NOT NULL,
    PRIMARY KEY (projection, version)
  ) WITHOUT ROWID;
  CREATE TABLE IF NOT EXISTS read_model_entries (
    projection TEXT    NOT NULL,
    version    INTEGER NOT NULL,
    key        TEXT    NOT NULL,
    field      TEXT    NOT NULL,
    kind       TEXT    NOT NULL CHECK (kind IN ('string', 'hash', 'set')),
    value      TEXT    NOT NULL,
    PRIMARY KEY (projection, version, key, field)
  ) WITHOUT ROWID`;

type Kind = 'string' | 'hash' | 'set';

/** Counters stay within what a JS reader can parse back exactly (the other adapters agree). */
const INTEGER = /^(0|-?[1-9]\d*)$/;

/**
 * A pinned version, or the active one resolved inside the same statement as the read, so a read
 * never mixes two versions even when another process switches between statements.
 */
const VERSION = `COALESCE(@pinned, (SELECT active FROM read_model_projections WHERE name = @projection), 1)`;

/**
 * Read models in a SQLite file, for the embedded process: they survive a restart together with
 * their checkpoints, so a restart resumes each projection where it stopped instead of replaying
 * the log from position 0.
 *
 * `synchronous=NORMAL`: a commit is durable against a process crash, and a power cut can only
 * lose the last commits together with their checkpoint, which the runner then projects again
 * from the log; fsyncing every commit (FULL, as the event store must) would buy nothing here.
 * WAL and the busy timeout let several gateways share the file: readers never wait, and each
 * commit is an IMMEDIATE transaction, so the checkpoint guard is read under the write lock.
 */
export function createSqliteReadModelStore(opts: SqliteReadModelStoreOptions): ReadModelStore {
  const db = openSqliteFile(opts.path, { synchronous: 'NORMAL', setUp: (setUp) => setUp.exec(SCHEMA) });
  const statements = prepare(db);
  let closed = false;

  function assertOpen(): void {
    if (closed) throw new Error('The read-model store is closed');
  }

  function versions(name: string): { active: number; lastCreated: number } {
    const row = statements.projection.get(name) as { active: number; last_created: number } | undefined;
    return row ? { active: row.active, lastCreated: row.last_created } : { active: 1, lastCreated: 1 };
  }

  function assertCreated(name: string, version: number): void {
    if (!Number.isSafeInteger(version) || version < 1 || version > versions(name).lastCreated) {
      throw new ReadModelVersionError(`version ${version} of projection ${name} was never created`);
    }
  }

  const commitTransaction = db.transaction(
    (name: string, pinned: number | undefined, from: number | null, to: number, ops: readonly ReadModelOp[]) => {
      if (pinned !== undefined) assertCreated(name, pinned);
      const version = pinned ?? versions(name).active;
      const stored = statements.checkpoint.get({ projection: name, pinned: version }) as number | undefined;
      if ((stored ?? null) !== from) return false;
      const target = { projection: name, version };
      for (const op of ops) apply(statements, target, op);
      statements.saveCheckpoint.run({ ...target, position: to });
      return true;
    },
  );

  function projection(name: string, pinned?: number): ProjectionStore {
    const at = { projection: name, pinned: pinned ?? null };

    function rowsOf(keys: readonly string[]): Map<string, { kind: Kind; field: string; value: string }[]> {
      const rows = statements.readMany.all({ ...at, keys: JSON.stringify(keys) }) as {
        key: string;
        kind: Kind;
        field: string;
        value: string;
      }[];
      const byKey = new Map<string, { kind: Kind; field: string; value: string }[]>();
      for (const row of rows) {
        const list = byKey.get(row.key);
        if (list) list.push(row);
        else byKey.set(row.key, [row]);
      }
      return byKey;
    }

    function expectKind(key: string, rows: readonly { kind: Kind }[] | undefined, kind: Kind): void {
      const found = rows?.[0]?.kind;
      if (found && found !== kind) throw new ReadModelValueError(`key ${key} holds a ${found}, not a ${kind}`);
    }

    async function mget(keys: readonly string[]): Promise<(string | null)[]> {
      assertOpen();
      if (keys.length === 0) return [];
      const byKey = rowsOf(keys);
      return keys.map((key) => {
        const rows = byKey.get(key);
        expectKind(key, rows, 'string');
        return rows?.[0]?.value ?? null;
      });
    }

    async function hgetallMany(keys: readonly string[]): Promise<Record<string, string>[]> {
      assertOpen();
      if (keys.length === 0) return [];
      const byKey = rowsOf(keys);
      return keys.map((key) => {
        const rows = byKey.get(key);
        expectKind(key, rows, 'hash');
        return Object.fromEntries((rows ?? []).map(({ field, value }) => [field, value]));
      });
    }

    return {
      async commit(from, to, ops) {
        assertOpen();
        return commitTransaction.immediate(name, pinned, from, to, ops);
      },
      async checkpoint() {
        assertOpen();
        return (statements.checkpoint.get(at) as number | undefined) ?? null;
      },
      async get(key) {
        const [value] = await mget([key]);
        return value ?? null;
      },
      mget,
      async hgetall(key) {
        const [hash] = await hgetallMany([key]);
        return hash ?? {};
      },
      hgetallMany,
      async smembers(key) {
        assertOpen();
        const rows = statements.readOne.all({ ...at, key }) as { kind: Kind; field: string }[];
        expectKind(key, rows, 'set');
        return rows.map(({ field }) => field);
      },
    };
  }

  const createVersion = db.transaction((name: string) => {
    const { active, lastCreated } = versions(name);
    statements.saveProjection.run({ name, active, lastCreated: lastCreated + 1 });
    return lastCreated + 1;
  });
  const activate = db.transaction((name: string, version: number) => {
    assertCreated(name, version);
    statements.saveProjection.run({ name, active: version, lastCreated: versions(name).lastCreated });
  });
  const dropVersion = db.transaction((name: string, version: number) => {
    if (versions(name).active === version) {
      throw new ReadModelVersionError(`version ${version} of projection ${name} is active`);
    }
    statements.dropEntries.run({ projection: name, version });
    statements.dropCheckpoint.run({ projection: name, version });
  });

  return {
    projection,
    async activeVersion(name) {
      assertOpen();
      return versions(name).active;
    },
    async createVersion(name) {
      assertOpen();
      return createVersion.immediate(name);
    },
    async activate(name, version) {
      assertOpen();
      activate.immediate(name, version);
    },
    async dropVersion(name, version) {
      assertOpen();
      dropVersion.immediate(name, version);
    },
    async ping() {
      assertOpen();
      statements.ping.get();
    },
    async close() {
      if (closed) return;
      closed = true;
      db.close();
    },
  };
}

function prepare(db: Database.Database) {
  const entries = 'FROM read_model_entries WHERE projection = @projection AND version = @version AND key = @key';
  return {
    ping: db.prepare('SELECT 1'),
    projection: db.prepare('SELECT active, last_created FROM read_model_projections WHERE name = ?'),
    saveProjection: db.prepare(
      `INSERT INTO read_model_projections (name, active, last_created) VALUES (@name, @active, @lastCreated)
       ON CONFLICT (name) DO UPDATE SET active = excluded.active, last_created = excluded.last_created`,
    ),
    checkpoint: db
      .prepare(`SELECT position FROM read_model_checkpoints WHERE projection = @projection AND version = ${VERSION}`)
      .pluck(),
    saveCheckpoint: db.prepare(
      `INSERT INTO read_model_checkpoints (projection, version, position) VALUES (@projection, @version, @position)
       ON CONFLICT (projection, version) DO UPDATE SET position = excluded.position`,
    ),
    dropCheckpoint: db.prepare(
      'DELETE FROM read_model_checkpoints WHERE projection = @projection AND version = @version',
    ),
    dropEntries: db.prepare('DELETE FROM read_model_entries WHERE projection = @projection AND version = @version'),
    // Many keys in one statement: the keys go in as one JSON array, so the statement is prepared once.
    readMany: db.prepare(
      `SELECT key, kind, field, value FROM read_model_entries
       WHERE projection = @projection AND version = ${VERSION}
         AND key IN (SELECT value FROM json_each(@keys))`,
    ),
    readOne: db.prepare(
      `SELECT kind, field FROM read_model_entries
       WHERE projection = @projection AND version = ${VERSION} AND key = @key`,
    ),
    kindOf: db.prepare(`SELECT kind ${entries} LIMIT 1`).pluck(),
    fieldOf: db.prepare(`SELECT value ${entries} AND field = @field`).pluck(),
    put: db.prepare(
      `INSERT INTO read_model_entries (projection, version, key, field, kind, value)
       VALUES (@projection, @version, @key, @field, @kind, @value)
       ON CONFLICT (projection, version, key, field) DO UPDATE SET value = excluded.value`,
    ),
    addMember: db.prepare(
      `INSERT INTO read_model_entries (projection, version, key, field, kind, value)
       VALUES (@projection, @version, @key, @field, 'set', '') ON CONFLICT DO NOTHING`,
    ),
    delete: db.prepare(`DELETE ${entries}`),
    rename: db.prepare(
      `UPDATE read_model_entries SET key = @to
       WHERE projection = @projection AND version = @version AND key = @key`,
    ),
  };
}

type Statements = ReturnType<typeof prepare>;

/** Applies one op inside the commit's transaction; a throw rolls the whole commit back. */
function apply(statements: Statements, target: { projection: string; version: number }, op: ReadModelOp): void {
  const at = { ...target, key: op.key };
  const writable = (kind: Kind) => {
    const found = statements.kindOf.get(at) as Kind | undefined;
    if (found && found !== kind) throw new ReadModelValueError(`${op.op} on key ${op.key}, which holds a ${found}`);
  };
  switch (op.op) {
    case 'set':
      statements.delete.run(at);
      statements.put.run({ ...at, field: '', kind: 'string', value: op.value });
      break;
    case 'del':
      statements.delete.run(at);
      break;
    case 'hset':
      writable('hash');
      statements.put.run({ ...at, field: op.field, kind: 'hash', value: op.value });
      break;
    case 'hincrby': {
      if (!Number.isSafeInteger(op.by)) {
        throw new ReadModelValueError(`hincrby on key ${op.key}: by must be a safe integer, got ${op.by}`);
      }
      writable('hash');
      const current = (statements.fieldOf.get({ ...at, field: op.field }) as string | undefined) ?? '0';
      const next = Number(current) + op.by;
      if (!INTEGER.test(current) || !Number.isSafeInteger(Number(current)) || !Number.isSafeInteger(next)) {
        throw new ReadModelValueError(`hincrby on ${op.key} ${op.field}: ${current} + ${op.by} is not a safe integer`);
      }
      statements.put.run({ ...at, field: op.field, kind: 'hash', value: String(next) });
      break;
    }
    case 'sadd':
      writable('set');
      statements.addMember.run({ ...at, field: op.member });
      break;
    case 'rename':
      if (op.to === op.key) break;
      statements.delete.run({ ...target, key: op.to });
      statements.rename.run({ ...at, to: op.to });
      break;
    default:
      throw new ReadModelValueError(`unknown op ${String((op as { op: unknown }).op)}`);
  }
}

/**
 * Empties a read-model file for good, every projection and checkpoint, leaving no copy of what
 * it held in the file or its write-ahead log (after the personal-data migration, whose clear
 * names and emails the read models had copied). The product must be stopped; its next start,
 * or a rebuild, projects everything again. A missing file is left missing.
 */
export function eraseSqliteReadModels(path: string): void {
  if (!existsSync(path)) return;
  const db = openSqliteFileExclusively(path);
  try {
    db.exec(SCHEMA);
    db.exec('DELETE FROM read_model_entries; DELETE FROM read_model_checkpoints; DELETE FROM read_model_projections');
    compactSqliteFile(db);
  } finally {
    db.close();
  }
}
