import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

const POLL_MS = 100;

/*
 * `VACUUM INTO` reads the whole file in one read transaction: a snapshot of one instant that the
 * product's writers, in WAL mode, never wait for. SQLite's backup API copies in steps and starts
 * over whenever another connection writes, which under steady scans it would never finish. It
 * runs in a worker so that this thread can draw progress from the copy's growing size. With
 * synchronous=OFF it syncs nothing (SQLite 3.53 counted 4 fsyncs per copy with the default): the
 * finished copy is synced once, before the manifest that vouches for it is written.
 */
const VACUUM_INTO = `
const { workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.source, { readonly: true, fileMustExist: true, timeout: 5000 });
try {
  db.pragma('synchronous = OFF');
  db.prepare('VACUUM INTO ?').run(workerData.target);
} finally {
  db.close();
}`;

const driver = createRequire(import.meta.url).resolve('better-sqlite3');

/** The bytes a SQLite file and its write-ahead log hold now: what a snapshot of it reads, at most. */
export async function liveBytes(file: string): Promise<number> {
  const sizes = await Promise.all(
    [file, `${file}-wal`].map((name) =>
      stat(name).then(
        (s) => s.size,
        () => 0,
      ),
    ),
  );
  return sizes[0]! + sizes[1]!;
}

/**
 * A consistent copy of the SQLite file `source` at `target` (which must not exist), taken while
 * other processes read and write it; `onCopied` hears how many bytes the copy has so far.
 */
export async function snapshotSqliteFile(
  source: string,
  target: string,
  onCopied: (bytes: number) => void,
): Promise<void> {
  const worker = new Worker(VACUUM_INTO, { eval: true, workerData: { driver, source, target } });
  const timer = setInterval(() => {
    void stat(target).then(
      ({ size }) => onCopied(size),
      () => undefined,
    );
  }, POLL_MS);
  try {
    await new Promise<void>((resolve, reject) => {
      worker.once('error', reject);
      worker.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`snapshot of ${source} stopped`))));
    });
  } finally {
    clearInterval(timer);
  }
  await syncFile(target);
}

/** Flushes a file (or a folder's entries) to the disk. */
export async function syncFile(file: string): Promise<void> {
  const handle = await open(file, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

export async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}
