/**
 * The folders a backup or a restore writes beside their final place (`<place>.<tag>-<pid>`) and
 * renames into it when done. They hold copies of credentials and secrets, so none may outlive
 * its run: a failed run removes its own, an interrupted one (SIGINT, SIGTERM, SIGHUP) too, and
 * every run first removes those of earlier runs whose process is gone (a kill -9, a power cut).
 */
import { rmSync } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import { constants } from 'node:os';
import path from 'node:path';

export function stagingFolder(place: string, tag: string): string {
  return `${place}.${tag}-${process.pid}`;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes the staging folders of `place` left by runs whose process is gone; answers their paths. */
export async function removeStaleStaging(place: string, tag: string): Promise<string[]> {
  const prefix = `${path.basename(place)}.${tag}-`;
  const names = await readdir(path.dirname(place)).catch(() => []);
  const stale = names
    .filter((name) => name.startsWith(prefix) && /^\d+$/.test(name.slice(prefix.length)))
    .filter((name) => !isRunning(Number(name.slice(prefix.length))))
    .map((name) => path.join(path.dirname(place), name));
  await Promise.all(stale.map((folder) => rm(folder, { recursive: true, force: true })));
  return stale;
}

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * Until the returned function is called, a signal that would end the run removes `folders`
 * first, then ends it with the shell's code for that signal (130 for SIGINT).
 */
export function removeOnInterrupt(folders: readonly string[], name: string): () => void {
  const handlers = SIGNALS.map((signal) => {
    const handler = () => {
      // A copy still running on another thread (VACUUM INTO, copyFile) may add a file while the
      // folder is removed: rmSync then retries (ENOTEMPTY). Once it is gone, nothing can add one.
      for (const folder of folders) rmSync(folder, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 });
      process.stderr.write(`${name}: interrupted by ${signal}; its unfinished copy was removed\n`);
      process.exit(128 + constants.signals[signal]);
    };
    process.once(signal, handler);
    return [signal, handler] as const;
  });
  return () => {
    for (const [signal, handler] of handlers) process.off(signal, handler);
  };
}
