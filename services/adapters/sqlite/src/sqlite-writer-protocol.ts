import { ConcurrencyError, type ExpectedRevision } from '@qrshirt/core';
import type { CommittedAppend, SerializedAppend } from './sqlite-appender';
import type { SqliteSynchronous } from './sqlite-database';

/** What the writer thread is started with. */
export interface WriterThreadData {
  path: string;
  synchronous: SqliteSynchronous;
}

/** The appends one synchronous run of the caller's thread made, numbered from `firstId`. */
export type ToWriter = { kind: 'append'; firstId: number; appends: SerializedAppend[] } | { kind: 'close' };

export type AppendOutcome = { ok: true; result: CommittedAppend } | { ok: false; error: WireError };

/** The outcomes of one `append` message, in its order. */
export type FromWriter = { kind: 'settled'; firstId: number; outcomes: AppendOutcome[] };

/**
 * An error as it crosses threads. Structured cloning keeps an Error's message but not its class,
 * and callers tell a lost race (ConcurrencyError) from a failure by its class.
 */
type WireError =
  | { concurrency: { streamName: string; expected: ExpectedRevision; actual: number | 'no_stream' } }
  | { message: string; code?: string };

export function toWireError(error: unknown): WireError {
  if (error instanceof ConcurrencyError) {
    const { streamName, expected, actual } = error;
    return { concurrency: { streamName, expected, actual } };
  }
  const code = (error as { code?: unknown } | undefined)?.code;
  return {
    message: error instanceof Error ? error.message : String(error),
    ...(typeof code === 'string' && { code }),
  };
}

export function fromWireError(wire: WireError): Error {
  if ('concurrency' in wire) {
    const { streamName, expected, actual } = wire.concurrency;
    return new ConcurrencyError(streamName, expected, actual);
  }
  return Object.assign(new Error(wire.message), wire.code !== undefined && { code: wire.code });
}
