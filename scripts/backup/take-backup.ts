/**
 * What `npm run backup` does, loaded by scripts/backup.ts once it runs at the lowest priority.
 * Each SQLite file is copied as of one instant (`VACUUM INTO`), in the order `DATABASES` gives,
 * with the generated secrets and a manifest (positions, checkpoints, sizes, sha256). The
 * personal-data keys go to a file of their own, out of the credentials' copy.
 */
import { existsSync } from 'node:fs';
import { copyFile, mkdir, readdir, rename, rm, stat, statfs, writeFile } from 'node:fs/promises';
import path from 'node:path';
import Database from 'better-sqlite3';
import { createProgress } from '../replay/progress';
import { DATABASES, FORMAT, JOURNAL, KEYS_FILE, MANIFEST, SECRETS } from './layout';
import type { Manifest } from './manifest';
import { failWith, parseCommandLine } from './command-line';
import { liveBytes, sha256Of, snapshotSqliteFile, syncFile } from './snapshot';
import { BACKUP_KEY_VARIABLE, backupKey, sign, SIGNATURE } from './signature';
import { removeOnInterrupt, removeStaleStaging, stagingFolder } from './staging';

/** `<DIR>.partial-<pid>`: where a backup is written until it is complete. */
const STAGING_TAG = 'partial';

const NAME = 'backup';
const USAGE = `Usage: npm run ${NAME} -- --to DIR [--keys-to KEYS_DIR] [--data-dir DATA_DIR]

Copies every database in DATA_DIR (default: the DATA_DIR setting, else ./data) into DIR, which
must not exist or be empty, while the product runs, with a manifest of what was copied, signed
with BACKUP_HMAC_KEY when it is set (required in production), and the erasure journal
(ERASURE_JOURNAL, else DATA_DIR/erasures.jsonl).

Options:
  --to DIR           where the backup goes
  --keys-to DIR      where the personal-data keys go (default: DIR/keys); keep them apart from
                     the log, on their own medium and retention
  --data-dir DIR     the folder to back up
  -h, --help         this text
`;

const fail = failWith(NAME);

function parse() {
  const values = parseCommandLine(
    {
      to: { type: 'string' },
      'keys-to': { type: 'string' },
      'data-dir': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    USAGE,
    fail,
  );
  if (!values.to) return fail('--to DIR is required (see --help)', 2);
  const to = path.resolve(values.to);
  const dataDir = path.resolve(values['data-dir'] ?? (process.env.DATA_DIR || './data'));
  return {
    to,
    keysTo: path.resolve(values['keys-to'] ?? path.join(to, 'keys')),
    dataDir,
    // As the gateway's config finds it: ERASURE_JOURNAL, or in DATA_DIR.
    journalFile: path.resolve(process.env.ERASURE_JOURNAL?.trim() || path.join(dataDir, JOURNAL)),
  };
}

/** A folder that is absent or empty: the only kind a backup writes into, so nothing is overwritten. */
async function assertFree(dir: string, what: string): Promise<void> {
  const entries = await readdir(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    if (error.code === 'ENOTDIR') return [path.basename(dir)];
    throw error;
  });
  if (entries.length > 0) fail(`${what} ${dir} exists and is not empty: choose a new folder`, 2);
}

/** What `VACUUM INTO` writes for the SQLite file `file`: its pages in use, as of now. */
function pagesInUse(file: string): number {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const pragma = (name: string) => db.pragma(name, { simple: true }) as number;
    return (pragma('page_count') - pragma('freelist_count')) * pragma('page_size');
  } finally {
    db.close();
  }
}

/** The bytes free to this user where `dir` is, or would be made: at its nearest folder that exists. */
async function freeBytesAt(dir: string): Promise<number> {
  for (let at = dir; ; at = path.dirname(at)) {
    try {
      const { bavail, bsize } = await statfs(at);
      return bavail * bsize;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || at === path.dirname(at)) throw error;
    }
  }
}

const isDiskFull = (error: unknown) => ['ENOSPC', 'SQLITE_FULL'].includes(String((error as { code?: unknown }).code));
const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;

/** The one line a backup that does not fit ends with. */
function noRoom(to: string, free: number, needed: number): string {
  const short = needed > free ? `${mib(needed - free)} missing` : 'something else took the space while it was written';
  return `not enough space for ${to}: ${mib(free)} free, the backup needs about ${mib(needed)} (${short})`;
}

/** Moves the personal-data keys out of a credentials copy into a file of their own. */
function splitKeys(credentials: string, keysFile: string): { keys: number; erased: number } {
  const from = new Database(credentials);
  const to = new Database(keysFile);
  try {
    to.exec('CREATE TABLE personal_data_keys (subject TEXT PRIMARY KEY, key BLOB)');
    const insert = to.prepare('INSERT INTO personal_data_keys (subject, key) VALUES (?, ?)');
    let keys = 0;
    let erased = 0;
    to.transaction(() => {
      const rows = from.prepare<[], { subject: string; key: Buffer | null }>(
        'SELECT subject, key FROM personal_data_keys',
      );
      for (const { subject, key } of rows.iterate()) {
        insert.run(subject, key);
        if (key) keys++;
        else erased++;
      }
    })();
    // The keys must not linger in the credentials' copy, not even in its free pages.
    from.pragma('secure_delete = ON');
    from.exec('DELETE FROM personal_data_keys; VACUUM');
    return { keys, erased };
  } finally {
    from.close();
    to.close();
  }
}

function describe(name: string, file: string): Partial<Manifest['files'][number]> {
  const db = new Database(file, { readonly: true });
  try {
    if (name === 'events.sqlite') {
      const row = db.prepare<[], { head: number | null; events: number }>(
        'SELECT MAX(global_position) AS head, COUNT(*) AS events FROM events',
      );
      const { head, events } = row.get()!;
      return { headPosition: head ?? 0, events };
    }
    if (name === 'read-models.sqlite') {
      const rows = db
        .prepare<[], { projection: string; position: number }>(
          // A projection never rebuilt has no row of its own: its version 1 is the active one.
          `SELECT c.projection, c.position FROM read_model_checkpoints c
           LEFT JOIN read_model_projections p ON p.name = c.projection
           WHERE c.version = COALESCE(p.active, 1)`,
        )
        .all();
      return { checkpoints: Object.fromEntries(rows.map(({ projection, position }) => [projection, position])) };
    }
    if (name === 'outbox.sqlite') {
      return { messages: db.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM outbox').get()!.n };
    }
    return {};
  } finally {
    db.close();
  }
}

export async function takeBackup(): Promise<void> {
  const { to, keysTo, dataDir, journalFile } = parse();
  // Owner-only files, as restrictNewFiles (@qrshirt/runtime) makes them: that package's entry
  // takes half a second of CPU to load, which the product's requests would lose.
  process.umask(0o077);
  const signing = backupKey(process.env);
  if ('error' in signing) return fail(signing.error, 2);
  if (!existsSync(path.join(dataDir, 'events.sqlite')))
    fail(`no event store at ${path.join(dataDir, 'events.sqlite')}`, 2);
  await assertFree(to, 'backup folder');
  const keysApart = path.dirname(keysTo) !== to;
  if (keysApart) await assertFree(keysTo, 'keys folder');
  const databases = DATABASES.filter((name) => existsSync(path.join(dataDir, name)));
  const inUse = Object.fromEntries(databases.map((name) => [name, pagesInUse(path.join(dataDir, name))]));
  // Each copy, and the credentials' once more: their keys' file and the VACUUM that clears them out.
  const needed =
    databases.reduce((sum, name) => sum + inUse[name]!, 0) +
    (inUse['credentials.sqlite'] ?? 0) +
    (await stat(journalFile).then(
      ({ size }) => size,
      () => 0,
    ));
  const free = await freeBytesAt(to);
  if (free < needed) fail(noRoom(to, free, needed), 2);

  // Written beside their places, then renamed into them: a run that fails leaves nothing there.
  await Promise.all([removeStaleStaging(to, STAGING_TAG), keysApart && removeStaleStaging(keysTo, STAGING_TAG)]);
  const staging = stagingFolder(to, STAGING_TAG);
  const keysStaging = keysApart ? stagingFolder(keysTo, STAGING_TAG) : path.join(staging, path.basename(keysTo));
  const cleanUp = () =>
    Promise.all([rm(staging, { recursive: true, force: true }), rm(keysStaging, { recursive: true, force: true })]);
  const keepOnInterrupt = removeOnInterrupt([staging, keysStaging], NAME);
  try {
    await mkdir(staging, { recursive: true, mode: 0o700 });
    await mkdir(keysStaging, { recursive: true, mode: 0o700 });
    const takenAt = new Date().toISOString();
    const sizes = await Promise.all(databases.map((name) => liveBytes(path.join(dataDir, name))));
    const total = sizes.reduce((a, b) => a + b, 0);
    const progress = createProgress(process.stderr, NAME);
    let done = 0;
    const files: Manifest['files'] = [];
    let keys: Manifest['keys'] = null;
    for (const [index, name] of databases.entries()) {
      const target = path.join(staging, name);
      await snapshotSqliteFile(path.join(dataDir, name), target, (bytes) =>
        progress.update(done + Math.min(bytes, sizes[index]!), total, name),
      );
      done += sizes[index]!;
      if (name === 'credentials.sqlite') {
        const keysFile = path.join(keysStaging, KEYS_FILE);
        const counts = splitKeys(target, keysFile);
        await syncFile(keysFile);
        await syncFile(target);
        keys = { name: KEYS_FILE, bytes: (await stat(keysFile)).size, sha256: await sha256Of(keysFile), ...counts };
      }
      files.push({ name, bytes: (await stat(target)).size, sha256: await sha256Of(target), ...describe(name, target) });
    }
    for (const name of SECRETS) {
      const source = path.join(dataDir, name);
      if (!existsSync(source)) continue;
      await copyFile(source, path.join(staging, name));
      files.push({ name, bytes: (await stat(source)).size, sha256: await sha256Of(source) });
    }
    // After the credentials: every erasure their copy shows was journaled before it was made.
    let journal: Manifest['journal'] = null;
    if (existsSync(journalFile)) {
      const copy = path.join(staging, JOURNAL);
      await copyFile(journalFile, copy);
      await syncFile(copy);
      journal = { name: JOURNAL, bytes: (await stat(copy)).size, sha256: await sha256Of(copy) };
    }
    progress.finish();
    const manifest: Manifest = { format: FORMAT, takenAt, from: dataDir, files, keys, journal };
    const manifestText = `${JSON.stringify(manifest, null, 2)}\n`;
    await writeFile(path.join(staging, MANIFEST), manifestText);
    await syncFile(path.join(staging, MANIFEST));
    if (signing.key) {
      await writeFile(path.join(staging, SIGNATURE), sign(manifestText, signing.key));
      await syncFile(path.join(staging, SIGNATURE));
    }
    await syncFile(staging);
    if (keysApart) await rename(keysStaging, keysTo);
    await rename(staging, to);
    await syncFile(path.dirname(to));
    const events = files.find(({ name }) => name === 'events.sqlite');
    process.stderr.write(
      `${NAME}: ${files.length} files (${events?.events ?? 0} events, up to position ${events?.headPosition ?? 0}) ` +
        `in ${to}, keys in ${keysTo}\n`,
    );
  } catch (error) {
    await cleanUp();
    if (isDiskFull(error)) fail(noRoom(to, await freeBytesAt(to), needed));
    throw error;
  } finally {
    keepOnInterrupt();
  }
  if (!signing.key) {
    process.stderr.write(
      `${NAME}: warning: the manifest is not signed: set ${BACKUP_KEY_VARIABLE} (kept apart from the backups) ` +
        `for a restore to refuse a backup altered since\n`,
    );
  }
  if (!keysApart) {
    process.stderr.write(
      `${NAME}: warning: the personal-data keys are in ${keysTo}, beside the log they unlock: ` +
        `move them to a medium of their own, or name one with --keys-to\n`,
    );
  }
}
