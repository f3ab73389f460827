import { statfs } from 'node:fs/promises';
import { z } from 'zod';
import { Gauge, type Registry } from 'prom-client';
import type { EventStore, ReadModelStore } from '@qrshirt/core';
import type { Logger } from 'pino';

const MIB = 1024 * 1024;

/** MIN_FREE_DISK: below this much free space in DATA_DIR's filesystem a start warns. */
export const diskSpaceEnv = {
  MIN_FREE_DISK: z.coerce
    .number({ error: 'expected a number of bytes' })
    .int('expected a whole number of bytes')
    .min(0, 'expected a number of bytes')
    .default(256 * MIB),
};

/**
 * Free space a store that failed for lack of it must see before it counts as writable again
 * without a write having succeeded: a readiness probe that failed until a write succeeded would
 * keep away the very requests that could show it.
 */
const RECOVERED_FREE_BYTES = 8 * MIB;

/**
 * Whether a write failed for lack of space: SQLite says SQLITE_FULL (its own code for a write
 * that got ENOSPC), a file write ENOSPC or EDQUOT. Wrapping errors keep it as their cause.
 */
export function isStorageFull(error: unknown): boolean {
  for (let seen = error, depth = 0; seen && depth < 5; seen = (seen as { cause?: unknown }).cause, depth++) {
    const code = (seen as { code?: unknown }).code;
    if (code === 'SQLITE_FULL' || code === 'ENOSPC' || code === 'EDQUOT') return true;
  }
  return false;
}

/** Bytes this process may still write in `dir`'s filesystem (what `df` calls available). */
export async function freeDiskBytes(dir: string): Promise<number> {
  const stats = await statfs(dir);
  return stats.bavail * stats.bsize;
}

/** Logs a warning when `dataDir`'s filesystem has less than `minFreeBytes` free. */
export async function warnIfLowOnDisk(options: { dataDir: string; minFreeBytes: number; log: Logger }): Promise<void> {
  const { dataDir, minFreeBytes, log } = options;
  const free = await freeDiskBytes(dataDir);
  if (free < minFreeBytes) {
    log.warn(
      { dataDir, freeBytes: free, minFreeBytes },
      `DATA_DIR has ${mebibytes(free)} free, less than MIN_FREE_DISK (${mebibytes(minFreeBytes)}): ` +
        'once it is full, writes are refused with 503 until space is freed',
    );
  }
}

export interface StorageMonitor {
  /** The event store, its appends watched. */
  watchEventStore(store: EventStore): EventStore;
  /** The read models, their commits watched. */
  watchReadModels(store: ReadModelStore): ReadModelStore;
  /** For /readyz: rejects while `store`'s last write failed for lack of space and no room was made since. */
  assertWritable(store: 'eventStore' | 'readModels'): Promise<void>;
}

/**
 * Watches the writes of the stores kept in `dataDir` for failures for lack of space, for
 * /readyz, and serves `data_dir_free_bytes` on `registry`. A store is failing from its first
 * write refused for lack of space until a write succeeds again or the filesystem has room again.
 */
export function createStorageMonitor({ dataDir, registry }: { dataDir: string; registry: Registry }): StorageMonitor {
  const full = new Set<string>();
  new Gauge({
    name: 'data_dir_free_bytes',
    help: "Bytes free for the product in DATA_DIR's filesystem",
    registers: [registry],
    async collect() {
      this.set(await freeDiskBytes(dataDir));
    },
  });

  async function watch<T>(store: string, write: Promise<T>): Promise<T> {
    try {
      const result = await write;
      full.delete(store);
      return result;
    } catch (error) {
      if (isStorageFull(error)) full.add(store);
      throw error;
    }
  }

  return {
    watchEventStore: (store) => ({
      ...store,
      appendToStream: (streamName, events, options) =>
        watch('eventStore', store.appendToStream(streamName, events, options)),
    }),
    watchReadModels: (store) => ({
      ...store,
      projection(name, version) {
        const projection = store.projection(name, version);
        return { ...projection, commit: (from, to, ops) => watch('readModels', projection.commit(from, to, ops)) };
      },
    }),
    async assertWritable(store) {
      if (!full.has(store)) return;
      const free = await freeDiskBytes(dataDir);
      if (free < RECOVERED_FREE_BYTES) {
        throw new Error(`storage full: writes to DATA_DIR fail for lack of space (${mebibytes(free)} free)`);
      }
      full.delete(store);
    },
  };
}

function mebibytes(bytes: number): string {
  return `${(bytes / MIB).toFixed(1)} MiB`;
}
