import { mkdir, readdir, unlink } from 'node:fs/promises';
import path from 'node:path';
import pinoRoll from 'pino-roll';
import type { DestinationStream } from 'pino';
import { PRIVATE_FILE_MODE, PRIVATE_FOLDER_MODE } from './private-folders';

/** The privacy policy (spec, "Privacy policy"): logs are kept 90 days, then deleted. */
export const LOG_RETENTION_DAYS = 90;

/** `gateway.2026-03-10.1.log`: pino-roll's `<file>.<dateFormat>.<number>.<extension>`. */
const logFileName = (service: string) => new RegExp(`^${service}\\.(\\d{4})-(\\d{2})-(\\d{2})\\.\\d+\\.log$`);

/**
 * Deletes `service`'s log files of days `LOG_RETENTION_DAYS` or more before `now`'s day (local
 * time, as pino-roll names them): the oldest line left is under 90 days old. Another process's
 * files in the same folder are its own to sweep.
 */
export async function removeExpiredLogFiles(dir: string, service: string, now: Date): Promise<string[]> {
  const pattern = logFileName(service);
  const oldestKept = new Date(now.getFullYear(), now.getMonth(), now.getDate() - LOG_RETENTION_DAYS + 1);
  const removed: string[] = [];
  for (const file of await readdir(dir)) {
    const match = pattern.exec(file);
    if (!match) continue;
    const day = new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
    if (day >= oldestKept) continue;
    try {
      await unlink(path.join(dir, file));
      removed.push(file);
    } catch (error) {
      // Another instance of the service may have swept it first.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  return removed;
}

/**
 * A pino destination writing `<dir>/<service>.<yyyy-MM-dd>.<n>.log`, a new file each local
 * midnight (pino-roll), and deleting files past the retention at start and at each new file.
 * pino-roll's own `limit` counts files, not days: a week with the process down would stretch it.
 * Writes are synchronous, as pino's stdout is: `process.exit` after a shutdown loses no line.
 * The folder and its files are owner-only, as DATA_DIR's are (see private-folders.ts).
 */
export async function openLogFiles({ dir, service }: { dir: string; service: string }): Promise<DestinationStream> {
  await mkdir(dir, { recursive: true, mode: PRIVATE_FOLDER_MODE });
  const sweep = () =>
    removeExpiredLogFiles(dir, service, new Date()).catch((error: unknown) => {
      process.emitWarning(`old log files in ${dir} not removed: ${String(error)}`);
    });
  await sweep();
  const stream = await pinoRoll({
    file: path.join(dir, `${service}.log`),
    frequency: 'daily',
    dateFormat: 'yyyy-MM-dd',
    mkdir: true,
    sync: true,
    mode: PRIVATE_FILE_MODE,
  });
  // sonic-boom says 'ready' each time it opens a file: at start (a second, idle sweep) and at every roll.
  stream.on('ready', () => void sweep());
  return stream;
}
