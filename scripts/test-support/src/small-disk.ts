/*
 * A small ext4 disk, loop-mounted for a test, rather than a size-limited tmpfs: tmpfs keeps
 * everything in memory, so its fsync does nothing and it allocates no blocks, while on ext4
 * SQLite's writes, fsyncs and file growth meet ENOSPC as they would on a production disk. `-m 0`
 * reserves no blocks for root, so the filler (written by root) fills what the product sees.
 * Mounting needs root: tests skip without it, unless REQUIRE_INFRA names `mount` (CI runs as root).
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { findExecutable } from './find-executable';
import { infraRequired } from './require-infra';

const run = promisify(execFile);
const MIB = 1024 * 1024;

const missing = ['mkfs.ext4', 'mount', 'umount'].filter((tool) => !findExecutable(tool, [`/usr/sbin/${tool}`]));

/** Why this machine cannot mount a small disk; undefined where it can. */
export const smallDiskUnavailable: string | undefined =
  process.getuid?.() !== 0
    ? 'not root: mounting a filesystem for the test needs root'
    : missing.length > 0
      ? `${missing.join(', ')} not found (e2fsprogs, mount)`
      : undefined;

/** Whether tests that need a small disk skip here (with a warning naming `what`) rather than fail. */
export function skipsWithoutSmallDisk(what: string): boolean {
  const skips = smallDiskUnavailable !== undefined && !infraRequired('mount');
  if (skips) console.warn(`[mount] ${what} skipped: ${smallDiskUnavailable}`);
  return skips;
}

/** A small ext4 disk mounted for a test; `dir` is undefined when it could not be mounted. */
export interface SmallDisk {
  dir: string | undefined;
  /** Why it could not be mounted (no loop device in a container, say). */
  failure: string | undefined;
  /** Takes every free block, with a file of zeros. */
  fill(): Promise<void>;
  /** Deletes that file. */
  free(): Promise<void>;
  unmount(): Promise<void>;
}

export async function mountSmallDisk(bytes = 64 * MIB): Promise<SmallDisk> {
  if (smallDiskUnavailable) throw new Error(`REQUIRE_INFRA names mount, but ${smallDiskUnavailable}`);
  const workDir = await mkdtemp(path.join(tmpdir(), 'qrshirt-small-disk-'));
  const image = path.join(workDir, 'disk.img');
  const mountPoint = path.join(workDir, 'mnt');
  await mkdir(mountPoint);
  await run('truncate', ['-s', String(bytes), image]);
  await run(findExecutable('mkfs.ext4', ['/usr/sbin/mkfs.ext4'])!, ['-q', '-m', '0', image]);
  let failure: string | undefined;
  try {
    await run('mount', ['-o', 'loop', image, mountPoint]);
  } catch (error) {
    failure = (error as { stderr?: string }).stderr?.trim() || String(error);
    if (infraRequired('mount')) {
      throw new Error(`REQUIRE_INFRA names mount, but mounting failed: ${failure}`, { cause: error });
    }
  }
  const filler = path.join(mountPoint, 'filler');
  return {
    dir: failure ? undefined : mountPoint,
    failure,
    fill: () => fillDisk(filler),
    free: () => rm(filler, { force: true }),
    async unmount() {
      // A process that still holds a file there would make a plain unmount fail: detach it anyway.
      if (!failure) await run('umount', [mountPoint]).catch(() => run('umount', ['-l', mountPoint]));
      await rm(workDir, { recursive: true, force: true });
    },
  };
}

/** Writes zeros to `file` until the filesystem refuses more, and makes them stick. */
async function fillDisk(file: string): Promise<void> {
  const handle = await open(file, 'w');
  try {
    // Large blocks first, then small ones, so the last few free blocks are taken too.
    for (const size of [MIB, 4096]) {
      const block = Buffer.alloc(size);
      for (;;) {
        try {
          await handle.write(block);
          await handle.sync();
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
          break;
        }
      }
    }
  } finally {
    await handle.close();
  }
}
