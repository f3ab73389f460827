import { statfs } from 'node:fs/promises';
import { z } from 'zod';
import { Gauge, type Registry } from 'prom-client';
import type { CredentialsStore, EventStore, OutboxStore, ReadModelStore } from '@qrshirt/core';
import type { Logger } from 'pino';

const MIB = 1024 * 1024;

/**
 * MIN_FREE_DISK: below this much free space in DATA_DIR's filesystem a start warns and /readyz
 * says not ready (its `diskSpace` check), before writes begin to fail; 0 turns both off.
 */
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
        '/readyz says not ready until there is more; once it is full, writes are refused with 503 until space is freed',
    );
  }
}

/** The stores in DATA_DIR whose writes the monitor watches, each a check of /readyz. */
export type WatchedStore = 'eventStore' | 'readModels' | 'outbox' | 'credentials';

export interface StorageMonitor {
  /** The event store, its appends watched. */
  watchEventStore(store: EventStore): EventStore;
  /** The read models, their commits watched. */
  watchReadModels(store: ReadModelStore): ReadModelStore;
  /** The mail outbox, its writes watched. */
  watchOutbox(this: void, store: OutboxStore): OutboxStore;
  /** The credentials (and the keys, salts and spent challenges kept with them), their writes watched. */
  watchCredentials<Store extends CredentialsStore>(store: Store): Store;
  /** For /readyz: rejects while `store`'s last write failed for lack of space and no room was made since. */
  assertWritable(store: WatchedStore): Promise<void>;
  /** For /readyz: rejects while DATA_DIR's filesystem has less than MIN_FREE_DISK free. */
  assertRoom(): Promise<void>;
}

/**
 * The outbox's calls that always write when they succeed: a claim or a retry that found nothing
 * to change succeeds on a full disk too, and would say nothing of it.
 */
const OUTBOX_WRITES = ['enqueue', 'markSent', 'markFailed'] as const;

/**
 * The credentials' calls that always write when they succeed: the others may find the row there
 * already (the day's salt, a person's key, an identity) or nothing to delete.
 */
const CREDENTIALS_WRITES = [
  'setPasswordHash',
  'createRefreshFamily',
  'endSessionsOf',
  'addOneTimeCode',
  'addPhoneVerification',
] as const;

/**
 * Watches the writes of the stores kept in `dataDir` for failures for lack of space, for
 * /readyz, and serves `data_dir_free_bytes` on `registry`. A store is failing from its first
 * write refused for lack of space until a write succeeds again or the filesystem has room again;
 * the filesystem is low on space below `minFreeBytes` (MIN_FREE_DISK), whatever the writes do.
 */
export function createStorageMonitor({
  dataDir,
  registry,
  minFreeBytes,
}: {
  dataDir: string;
  registry: Registry;
  minFreeBytes: number;
}): StorageMonitor {
  const full = new Set<WatchedStore>();
  new Gauge({
    name: 'data_dir_free_bytes',
    help: "Bytes free for the product in DATA_DIR's filesystem",
    registers: [registry],
    async collect() {
      this.set(await freeDiskBytes(dataDir));
    },
  });

  async function watch<T>(store: WatchedStore, write: Promise<T>, wrote = true): Promise<T> {
    try {
      const result = await write;
      if (wrote) full.delete(store);
      return result;
    } catch (error) {
      if (isStorageFull(error)) full.add(store);
      throw error;
    }
  }

  /**
   * `store` with every call watched for a failure for lack of space; a success of one of
   * `writes` counts as room made.
   */
  function watchCalls<Store extends object>(name: WatchedStore, store: Store, writes: readonly string[]): Store {
    const watched = Object.create(store) as Record<string, unknown>;
    // Inherited ones too: a wrapper such as the erasure journal's holds the store as its prototype.
    for (const key in store) {
      const call: unknown = store[key];
      if (typeof call !== 'function' || key === 'close') continue;
      const method = call as (...args: unknown[]) => Promise<unknown>;
      watched[key] = (...args: unknown[]) => watch(name, method.apply(store, args), writes.includes(key));
    }
    return watched as Store;
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
    watchOutbox: (store) => watchCalls('outbox', store, OUTBOX_WRITES),
    watchCredentials: (store) => watchCalls('credentials', store, CREDENTIALS_WRITES),
    async assertWritable(store) {
      if (!full.has(store)) return;
      const free = await freeDiskBytes(dataDir);
      if (free < RECOVERED_FREE_BYTES) {
        throw new Error(`storage full: writes to DATA_DIR fail for lack of space (${mebibytes(free)} free)`);
      }
      full.delete(store);
    },
    async assertRoom() {
      const free = await freeDiskBytes(dataDir);
      if (free < minFreeBytes) {
        throw new Error(
          `low on space: ${mebibytes(free)} free in DATA_DIR, under MIN_FREE_DISK (${mebibytes(minFreeBytes)})`,
        );
      }
    },
  };
}

function mebibytes(bytes: number): string {
  return `${(bytes / MIB).toFixed(1)} MiB`;
}
