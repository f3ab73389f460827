import type { KurrentDBClient } from '@kurrent/kurrentdb-client';
import { EsdbClosedError, EsdbDeadlineError, EsdbOutOfTimeError, namingAccessDenied } from './esdb-errors';
import { boundCalls } from './esdb-grpc';

export type KurrentModule = typeof import('@kurrent/kurrentdb-client');

/** What a call under the store's deadline is given: its abort signal and the time it has left. */
export interface CallBudget {
  /** Aborts when the call is abandoned, so a read stops pulling events. */
  signal: AbortSignal;
  /** Milliseconds it has left: passed on to the client, which sends it to the server. */
  deadlineMs: number;
}

export interface Guarded {
  /** The store's deadline for one call, and for one append with all its retries. */
  readonly deadlineMs: number;
  /**
   * `work`'s answer, or a clear error once its deadline passes or the store is closed first.
   * The deadline is the store's, or less when `until` (a time in ms) comes sooner: a call that is
   * one step of a larger one (an append's retries and check reads) shares that one's. Each call
   * is bounded alone: nothing one call meets fails another.
   */
  run<T>(this: void, what: string, work: (budget: CallBudget) => Promise<T>, until?: number): Promise<T>;
  /** Rejects every call still running, each naming what it was doing. */
  closeAll(this: void): void;
}

export function guardCalls(deadlineMs: number): Guarded {
  const running = new Set<(reason: 'closed' | 'deadline') => void>();
  let closed = false;
  return {
    deadlineMs,
    async run(what, work, until) {
      if (closed) throw new EsdbClosedError(`The event store is closed: ${what} was not started`);
      const budget = Math.min(deadlineMs, (until ?? Number.POSITIVE_INFINITY) - Date.now());
      if (budget <= 0) {
        throw new EsdbOutOfTimeError(`${what} was not sent: the ${deadlineMs} ms it shares were used up`);
      }
      const controller = new AbortController();
      let abandon!: (reason: 'closed' | 'deadline') => void;
      const abandoned = new Promise<never>((_, reject) => {
        abandon = (reason) => {
          controller.abort();
          reject(
            reason === 'closed'
              ? new EsdbClosedError(`The event store was closed during ${what}: its answer is incomplete`)
              : new EsdbDeadlineError(
                  `EventStoreDB did not answer ${what} within its deadline (${deadlineMs} ms` +
                    `${until === undefined ? '' : ', shared with the calls before it'})`,
                ),
          );
        };
      });
      const timer = setTimeout(() => abandon('deadline'), budget);
      running.add(abandon);
      try {
        return await Promise.race([work({ signal: controller.signal, deadlineMs: budget }), abandoned]);
      } catch (error) {
        throw namingAccessDenied(what, error);
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

export function openKurrentClient(kdb: KurrentModule, connectionString: string, deadlineMs: number): KurrentDBClient {
  return boundCalls(kdb.KurrentDBClient.connectionString(kurrentConnectionString(connectionString)), deadlineMs);
}
