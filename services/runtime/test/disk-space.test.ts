import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { openSqliteFile } from '@qrshirt/sqlite';
import { Registry } from 'prom-client';
import { createStorageMonitor, freeDiskBytes, isStorageFull, warnIfLowOnDisk } from '@qrshirt/runtime';

describe('a write that failed for lack of space', () => {
  it("is told from other failures: SQLite's SQLITE_FULL, a file's ENOSPC, either as a cause", async () => {
    // A database allowed two pages fills up after a few rows, as a full disk would make it.
    const db = openSqliteFile(':memory:', {
      synchronous: 'FULL',
      setUp: (opened) => opened.exec('CREATE TABLE t (v TEXT)'),
    });
    db.pragma('max_page_count = 2');
    const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
    const full = (() => {
      try {
        for (let i = 0; i < 100; i++) insert.run('x'.repeat(1000));
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    db.close();
    expect(isStorageFull(full)).toBe(true);
    // Linux's /dev/full refuses every write with ENOSPC.
    const enospc = await writeFile('/dev/full', 'x').catch((error: unknown) => error);
    expect(isStorageFull(enospc)).toBe(true);
    expect(isStorageFull(new Error('the writer failed', { cause: full }))).toBe(true);

    const missing = await writeFile('/no/such/folder/file', 'x').catch((error: unknown) => error);
    expect(isStorageFull(missing)).toBe(false);
    expect(isStorageFull(new Error('SQLITE_FULL'))).toBe(false);
    expect(isStorageFull(undefined)).toBe(false);
  });
});

describe('the start-up check of free space', () => {
  it('warns when the folder has less free than the floor, and only then', async () => {
    const lines: string[] = [];
    const log = pino(
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          lines.push(chunk.toString());
          done();
        },
      }),
    );
    const free = await freeDiskBytes(tmpdir());
    expect(free).toBeGreaterThan(0);
    await warnIfLowOnDisk({ dataDir: tmpdir(), minFreeBytes: 0, log });
    expect(lines).toEqual([]);
    await warnIfLowOnDisk({ dataDir: tmpdir(), minFreeBytes: Number.MAX_SAFE_INTEGER, log });
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ level: 40, minFreeBytes: Number.MAX_SAFE_INTEGER });
    expect(lines[0]).toMatch(/less than MIN_FREE_DISK/);
  });
});

describe("the readiness check of DATA_DIR's free space", () => {
  it('is down below MIN_FREE_DISK, naming what is free and the floor, and up at or above it', async () => {
    const monitor = (minFreeBytes: number) =>
      createStorageMonitor({ dataDir: tmpdir(), registry: new Registry(), minFreeBytes });
    await expect(monitor(0).assertRoom()).resolves.toBeUndefined();
    await expect(monitor(Number.MAX_SAFE_INTEGER).assertRoom()).rejects.toThrow(
      /^low on space: [\d.]+ MiB free in DATA_DIR, under MIN_FREE_DISK \(\d+\.\d MiB\)$/,
    );
  });
});
