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

/** A call not started: the server has answered nothing since an earlier call waited out its deadline. */
class EsdbStalledError extends Error {
  readonly type = 'stalled';
}

export interface Guarded {
  /**
   * `work`'s answer, or a clear error once `deadlineMs` passes or the store is closed first.
   * The client's reads and its server-features check take no deadline of their own: this is it.
   * `signal` aborts when the call is abandoned, so a read stops pulling events.
   *
   * Once a call has waited out its deadline, and until some call gets an answer, one call at a
   * time waits to see whether the server answers again and the others fail at once. The client
   * checks the server's features once per connection, before its first append and in its native
   * reader, with no deadline: while that check hangs every call waits on it until keepalive
   * fails the connection, and each would otherwise wait out its own deadline.
   */
  run<T>(this: void, what: string, work: (signal: AbortSignal) => Promise<T>): Promise<T>;
  /** Rejects every call still running, each naming what it was doing. */
  closeAll(this: void): void;
}

export function guardCalls(deadlineMs: number): Guarded {
  const running = new Set<(reason: 'closed' | 'deadline') => void>();
  let closed = false;
  let stalled: { what: string; since: number } | undefined;
  let probing = false;
  return {
    async run(what, work) {
      if (closed) throw new EsdbClosedError(`The event store is closed: ${what} was not started`);
      const probe = stalled !== undefined;
      if (stalled && probing) {
        throw new EsdbStalledError(
          `EventStoreDB has not answered ${stalled.what} for ${Date.now() - stalled.since} ms: ${what} was not ` +
            'sent (until it answers again, one call at a time waits and the others fail at once)',
        );
      }
      if (probe) probing = true;
      const started = Date.now();
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
        const answered = work(controller.signal);
        // Settling at all, even late, shows the connection alive again (or reset by the client).
        const unstall = (): void => void (stalled = undefined);
        answered.then(unstall, unstall);
        return await Promise.race([answered, abandoned]);
      } catch (error) {
        if (error instanceof EsdbDeadlineError) stalled ??= { what, since: started };
        throw error;
      } finally {
        clearTimeout(timer);
        running.delete(abandon);
        if (probe) probing = false;
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
