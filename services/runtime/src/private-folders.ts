import { chmod, lstat, mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';
import { isMainThread } from 'node:worker_threads';

/** Owner-only: what every folder the processes write (DATA_DIR, LOG_DIR and those under them) is given. */
export const PRIVATE_FOLDER_MODE = 0o700;
/** Owner-only: what every file in them is given. */
export const PRIVATE_FILE_MODE = 0o600;

/** Group and other users' permission bits. */
const OTHERS = 0o077;

/**
 * From here on, every file and folder this process creates is its user's alone (umask 077):
 * SQLite's files and the `-wal` and `-shm` beside them, which SQLite creates later with the main
 * file's mode, the outbox's mail, the log files. DATA_DIR holds password hashes, the keys that
 * keep erased people erased and live reset links: anyone else on the machine who could read them
 * could take over accounts. Node lets only the main thread change the umask; in a worker, the
 * modes the files are created with explicitly and `makePrivate` stand alone.
 */
export function restrictNewFiles(): void {
  if (isMainThread) process.umask(OTHERS);
}

/**
 * Creates `folder` if it is missing and makes it, and everything under it that this process's
 * user owns, owner-only (folders 0700, files 0600, the owner's own bits kept): an operator may
 * have made the folder beforehand with the usual 0755, or an older version written its files
 * 0644. Symbolic links are not followed. Answers the entries other users may still read or
 * enter: those another user owns, which only that user (or root) may change.
 */
export async function makePrivate(folder: string): Promise<string[]> {
  await mkdir(folder, { recursive: true, mode: PRIVATE_FOLDER_MODE });
  const uid = process.getuid?.();
  const exposed: string[] = [];
  const visit = async (entry: string): Promise<void> => {
    const stats = await lstat(entry);
    if (stats.isSymbolicLink()) return;
    if ((stats.mode & OTHERS) !== 0) {
      if (uid === undefined || stats.uid === uid) await chmod(entry, stats.mode & 0o700);
      else exposed.push(entry);
    }
    if (!stats.isDirectory()) return;
    for (const name of await readdir(entry)) await unlessGone(visit(path.join(entry, name)));
  };
  await visit(path.resolve(folder));
  return exposed;
}

/**
 * A file that went between its folder's listing and its visit has nothing left to make private:
 * SQLite creates and deletes its `-journal` beside the database while another thread of the
 * process writes, and a start once failed on it (ENOENT from lstat).
 */
async function unlessGone(visiting: Promise<void>): Promise<void> {
  try {
    await visiting;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

/** Where a process says what it could not make private. */
export interface PrivateFoldersLog {
  warn(details: object, message: string): void;
}

/** How many of the entries others can read a warning names. */
const NAMED_AT_MOST = 20;

/**
 * For a process's start: each folder it writes (unset ones skipped) made private with
 * `makePrivate`, and a warning naming what other users can still read there.
 */
export async function keepFoldersPrivate(
  folders: readonly (string | undefined)[],
  log: PrivateFoldersLog,
): Promise<void> {
  for (const folder of folders) {
    if (folder === undefined) continue;
    const exposed = await makePrivate(folder);
    if (exposed.length === 0) continue;
    const named = exposed.slice(0, NAMED_AT_MOST).join(', ');
    const more = exposed.length > NAMED_AT_MOST ? ` and ${exposed.length - NAMED_AT_MOST} more` : '';
    log.warn(
      { folder, readableByOthers: exposed.slice(0, NAMED_AT_MOST), count: exposed.length },
      `other users of this machine can read ${named}${more}: another user owns them, so this process ` +
        `cannot make them private; give them to the user it runs as (uid ${process.getuid?.()}) or remove them`,
    );
  }
}
