import type { KurrentDBClient } from '@kurrent/kurrentdb-client';

export type KurrentModule = typeof import('@kurrent/kurrentdb-client');

/** An answer the server did not give in time; its outcome, for an append, is unknown. */
class EsdbDeadlineError extends Error {
  readonly type = 'deadline-exceeded';
}

/** A call the adapter abandoned because its store was closed while it ran. */
class EsdbClosedError extends Error {
  readonly type = 'closed';
}

export interface Guarded {
  /**
   * `work`'s answer, or a clear error once `deadlineMs` passes or the store is closed first.
   * The client's reads and its server-features check take no deadline of their own: this is it.
   * `signal` aborts when the call is abandoned, so a read stops pulling events.
   */
  run<T>(this: void, what: string, work: (signal: AbortSignal) => Promise<T>): Promise<T>;
  /** Rejects every call still running, each naming what it was doing. */
  closeAll(this: void): void;
}

export function guardCalls(deadlineMs: number): Guarded {
  const running = new Set<(reason: 'closed' | 'deadline') => void>();
  let closed = false;
  return {
    async run(what, work) {
      if (closed) throw new EsdbClosedError(`The event store is closed: ${what} was not started`);
      const controller = new AbortController();
      let abandon!: (reason: 'closed' | 'deadline') => void;
      const abandoned = new Promise<never>((_, reject) => {
        abandon = (reason) => {
          controller.abort();
          reject(
            reason === 'closed'
              ? new EsdbClosedError(`The event store was closed during ${what}: its answer is incomplete`)
              : new EsdbDeadlineError(`EventStoreDB did not answer ${what} within ${deadlineMs} ms`),
          );
        };
      });
      const timer = setTimeout(() => abandon('deadline'), deadlineMs);
      running.add(abandon);
      try {
        return await Promise.race([work(controller.signal), abandoned]);
      } finally {
        clearTimeout(timer);
        running.delete(abandon);
      }
    },
    closeAll() {
      closed = true;
      for (const abandon of running) abandon('closed');
    },
  };
}

/** Every item of `source` while `keep` says so, stopping (and closing the read) when aborted. */
export async function collect<T>(
  source: AsyncIterable<T>,
  signal: AbortSignal,
  keep: (item: T) => boolean = () => true,
): Promise<void> {
  for await (const item of source) {
    if (signal.aborted || !keep(item)) return;
  }
}

/**
 * The successor's connection strings say `kurrentdb://`; the deployed settings still say
 * `esdb://`, which it accepts with a warning on every start.
 */
function kurrentConnectionString(connectionString: string): string {
  return connectionString.replace(/^esdb(\+discover)?:\/\//, 'kurrentdb$1://');
}

export function openKurrentClient(kdb: KurrentModule, connectionString: string): KurrentDBClient {
  return kdb.KurrentDBClient.connectionString(kurrentConnectionString(connectionString));
}
