import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Logger } from 'pino';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLogger, LOG_RETENTION_DAYS } from '../src';

/**
 * pino-roll schedules its roll for the next local midnight with setTimeout and names files with
 * Date: faking those two (and nothing that fs or sonic-boom waits on) lets a real file stream
 * live through a midnight in a test.
 */
describe('log files under LOG_DIR', () => {
  let dir: string;
  let log: Logger | undefined;

  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'qrshirt-log-files-'));
  });
  afterEach(async () => {
    log?.flush();
    vi.useRealTimers();
    await rm(dir, { recursive: true, force: true });
  });

  const files = async () => (await readdir(dir)).sort();
  const read = (file: string) => readFile(path.join(dir, file), 'utf8');

  it('start a new file each day and delete the days 90 days back, as the privacy policy says', async () => {
    expect(LOG_RETENTION_DAYS).toBe(90);
    // 2026-03-10 minus 90 days is 2025-12-10: that day's lines are 90 days old and more.
    for (const old of ['gateway.2025-12-10.1.log', 'gateway.2025-12-11.1.log', 'gateway.2025-12-12.1.log']) {
      await writeFile(path.join(dir, old), `{"msg":"from ${old}"}\n`);
    }
    // Not the gateway's to delete: another process's log and a file that is no log.
    await writeFile(path.join(dir, 'projector.2025-01-01.1.log'), '{}\n');
    await writeFile(path.join(dir, 'gateway.notes.txt'), 'kept\n');
    vi.useFakeTimers({ now: new Date(2026, 2, 10, 23, 59, 58), toFake: ['Date', 'setTimeout', 'clearTimeout'] });

    log = await createLogger({ service: 'gateway', level: 'info', logDir: dir });
    log.info('before midnight');
    expect(await files()).toEqual([
      'gateway.2025-12-11.1.log',
      'gateway.2025-12-12.1.log',
      'gateway.2026-03-10.1.log',
      'gateway.notes.txt',
      'projector.2025-01-01.1.log',
    ]);
    expect(await read('gateway.2026-03-10.1.log')).toContain('"msg":"before midnight"');

    await vi.advanceTimersByTimeAsync(3_000);
    // The roll flushes, opens the new day's file and then sweeps, on real file-system callbacks.
    await expect
      .poll(files)
      .toEqual([
        'gateway.2025-12-12.1.log',
        'gateway.2026-03-10.1.log',
        'gateway.2026-03-11.1.log',
        'gateway.notes.txt',
        'projector.2025-01-01.1.log',
      ]);
    log.info('after midnight');
    expect(await read('gateway.2026-03-11.1.log')).toContain('"msg":"after midnight"');
    expect(await read('gateway.2026-03-10.1.log')).not.toContain('after midnight');
  });

  it('go on in the same day’s file after a restart', async () => {
    vi.useFakeTimers({ now: new Date(2026, 2, 10, 9, 0, 0), toFake: ['Date', 'setTimeout', 'clearTimeout'] });
    const first = await createLogger({ service: 'ingestor', level: 'info', logDir: dir });
    first.info('first run');
    first.flush();
    log = await createLogger({ service: 'ingestor', level: 'info', logDir: dir });
    log.info('second run');
    expect(await files()).toEqual(['ingestor.2026-03-10.1.log']);
    const lines = (await read('ingestor.2026-03-10.1.log')).trim().split('\n');
    expect(lines.map((line) => (JSON.parse(line) as { msg: string }).msg)).toEqual(['first run', 'second run']);
  });
});
