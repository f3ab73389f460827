import type { AppendStreamState, EventData, KurrentDBClient, ResolvedEvent } from '@kurrent/kurrentdb-client';
import { ConcurrencyError, type AppendResult, type ExpectedRevision } from '@qrshirt/core';
import type { CallBudget, Guarded } from './esdb-client';
import type { EncodedEvent } from './esdb-encoding';
import { globalPositionOf } from './esdb-events';
import {
  appendSizeRefusal,
  errorType,
  isUnknownOutcome,
  sharedStreamExhausted,
  unrecognisedRefusal,
} from './esdb-errors';

/** KurrentDB 25.1's defaults: `MaxAppendSize` 256 MiB, `MaxAppendEventSize` 16 MiB. */
export const DEFAULT_MAX_APPEND_BYTES = 268_435_456;
export const DEFAULT_MAX_EVENT_BYTES = 16_777_216;
const RETRY_DELAYS_MS = [100, 400, 1_600];
/** Events read at a time when looking for an earlier attempt's ids after the revision read first. */
const CHECK_PAGE = 256;
/** A follower answers a leader-only read with not-leader; the client then reconnects to the leader. */
const NOT_LEADER_RETRIES = 3;

export type AppendClient = Pick<KurrentDBClient, 'appendToStream' | 'readStream'>;

export interface AppendLimits {
  maxAppendBytes: number;
  maxEventBytes: number;
}

/** The server calls of one append, all within its deadline. */
interface Calls {
  client: AppendClient;
  run<T>(this: void, what: string, work: (budget: CallBudget) => Promise<T>): Promise<T>;
}

interface EsdbAppendContext {
  client: AppendClient;
  /** The client's append on a call of its own, never on the BatchAppend stream others share. */
  appendAlone: AppendClient['appendToStream'];
  jsonEvent(event: {
    id: string;
    type: string;
    data: EncodedEvent['data'];
    metadata: EncodedEvent['metadata'];
  }): EventData;
  toState(expected: ExpectedRevision): AppendStreamState;
  limits: AppendLimits;
  /** The store's calls, under its deadline and its `close()`; one append's share one deadline. */
  guard: Pick<Guarded, 'run' | 'deadlineMs'>;
  /** Waits between attempts; tests pass one that does not. */
  sleep?: (ms: number) => Promise<void>;
}

/**
 * One atomic append, refused before any I/O when it exceeds the server's limits, and retried with
 * the same event ids after an answer that left its outcome unknown. Whether an earlier attempt was
 * committed is read from the stream itself, not left to the leader's in-memory id cache, which a
 * restart empties: after the revision an exact append expects, and for `any` and `stream_exists`
 * after the revision read before the first attempt. Those two are sent as they are, so two
 * writers appending to one stream at once never conflict.
 */
export async function appendEncoded(
  context: EsdbAppendContext,
  streamName: string,
  events: readonly EncodedEvent[],
  expected: ExpectedRevision,
): Promise<AppendResult> {
  checkLimits(streamName, events, context.limits);
  const proposed = events.map(({ id, type, data, metadata }) => context.jsonEvent({ id, type, data, metadata }));
  const ids = events.map((event) => event.id);
  const sleep = context.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  // One deadline for the whole append, lengthened by each back-off only.
  let until = Date.now() + context.guard.deadlineMs;
  const calls: Calls = { client: context.client, run: (what, work) => context.guard.run(what, work, until) };
  const before = await revisionBefore(calls, streamName, expected);
  // An exact retry is refused when its attempt landed (wrong expected version, below); the
  // others would land again, so they look first.
  const exact = expected !== 'any' && expected !== 'stream_exists';
  let unknownOutcome: Error | undefined;
  let alone = false;
  for (let attempt = 0; ; attempt++) {
    try {
      if (unknownOutcome !== undefined && !exact) {
        const earlier = await earlierAppend(calls, streamName, ids, before);
        if (earlier) return earlier;
      }
      const send = alone ? context.appendAlone : context.client.appendToStream.bind(context.client);
      const result = await calls.run(`the append to ${streamName}`, ({ deadlineMs }) =>
        send(streamName, proposed, {
          streamState: context.toState(expected),
          deadline: deadlineMs,
        }),
      );
      const revision = Number(result.nextExpectedRevision);
      // The server answers a write with its position; a repeat it recognised answers without one.
      if (result.position)
        return { nextExpectedRevision: revision, lastGlobalPosition: Number(result.position.commit) };
      return await storedAt(calls, streamName, revision);
    } catch (error) {
      if (errorType(error) === 'wrong-expected-version') {
        const earlier = await earlierAppend(calls, streamName, ids, before);
        if (earlier) return earlier;
        const actual = (error as { actualState?: unknown }).actualState;
        throw new ConcurrencyError(streamName, expected, typeof actual === 'bigint' ? Number(actual) : 'no_stream');
      }
      // Perhaps another append on the stream was too large: this one's outcome is unknown, and
      // its retries go on a call of their own, where "too large" is its own.
      const exhausted = !alone && sharedStreamExhausted(error);
      if (exhausted) alone = true;
      else if (appendSizeRefusal(error)) {
        throw new Error(
          `Append to ${streamName}: KurrentDB refused ${events.length} event(s) as too large; ` +
            'EVENTSTORE_MAX_APPEND_BYTES and EVENTSTORE_MAX_EVENT_BYTES must not exceed the server’s limits',
          { cause: error },
        );
      }
      if (unrecognisedRefusal(error)) {
        const reason = (error as Error).message.replace(/^Could not recognize /, '');
        throw new Error(`Append to ${streamName}: EventStoreDB refused it: ${reason}`, { cause: error });
      }
      // A retry not sent leaves the earlier attempt's outcome unknown: that is the answer.
      if (errorType(error) === 'out-of-time' && unknownOutcome !== undefined) throw unknownOutcome;
      const delay = RETRY_DELAYS_MS[attempt];
      if (delay === undefined || !(exhausted || isUnknownOutcome(error))) throw error;
      unknownOutcome = error instanceof Error ? error : new Error(String(error));
      await sleep(delay);
      until += delay;
    }
  }
}

function checkLimits(streamName: string, events: readonly EncodedEvent[], limits: AppendLimits): void {
  for (const event of events) {
    if (event.bytes > limits.maxEventBytes) {
      throw new Error(
        `Append to ${streamName}: event ${event.id} (${event.type}) is about ${event.bytes} bytes, ` +
          `more than the ${limits.maxEventBytes} bytes of one event EventStoreDB accepts (EVENTSTORE_MAX_EVENT_BYTES)`,
      );
    }
  }
  const total = events.reduce((sum, event) => sum + event.bytes, 0);
  if (total > limits.maxAppendBytes) {
    throw new Error(
      `Append to ${streamName}: ${events.length} events are about ${total} bytes, more than the ` +
        `${limits.maxAppendBytes} bytes of one append EventStoreDB accepts (EVENTSTORE_MAX_APPEND_BYTES)`,
    );
  }
}

/**
 * The stream's revision before this append: what it expects, or for `any` and `stream_exists`
 * the last revision read from the leader (an attempt that lands lands after it).
 */
async function revisionBefore(
  calls: Calls,
  streamName: string,
  expected: ExpectedRevision,
): Promise<number | 'no_stream'> {
  if (expected !== 'any' && expected !== 'stream_exists') return expected;
  const [last] = await readFromLeader(calls, streamName, {
    direction: 'backwards',
    fromRevision: 'end',
    maxCount: 1,
  });
  if (last?.event) return Number(last.event.revision);
  if (expected === 'stream_exists') throw new ConcurrencyError(streamName, expected, 'no_stream');
  return 'no_stream';
}

/** The position of the event at `revision`, read from the leader: a follower may not have it yet. */
async function storedAt(calls: Calls, streamName: string, revision: number): Promise<AppendResult> {
  const [resolved] = await readFromLeader(calls, streamName, {
    direction: 'forwards',
    fromRevision: BigInt(revision),
    maxCount: 1,
  });
  if (resolved?.event) {
    return {
      nextExpectedRevision: revision,
      lastGlobalPosition: globalPositionOf(resolved.event, resolved.commitPosition),
    };
  }
  throw new Error(`Stream ${streamName} has no event at revision ${revision} right after appending it`);
}

/**
 * An earlier attempt of this append, found in the stream after `before`: its first id anywhere
 * there (other writers' events may come first when it expected `any`), followed by the rest.
 */
async function earlierAppend(
  calls: Calls,
  streamName: string,
  ids: string[],
  before: number | 'no_stream',
): Promise<AppendResult | undefined> {
  let from = before === 'no_stream' ? 0 : before + 1;
  for (;;) {
    const page = (
      await readFromLeader(calls, streamName, {
        direction: 'forwards',
        fromRevision: BigInt(from),
        maxCount: CHECK_PAGE + ids.length,
      })
    ).flatMap((resolved) =>
      resolved.event
        ? [
            {
              id: resolved.event.id,
              revision: Number(resolved.event.revision),
              globalPosition: globalPositionOf(resolved.event, resolved.commitPosition),
            },
          ]
        : [],
    );
    const full = page.length === CHECK_PAGE + ids.length;
    const start = page.findIndex((event) => event.id === ids[0]);
    // In a full page, a start past CHECK_PAGE is read whole by the next one.
    if (start !== -1 && (!full || start < CHECK_PAGE)) {
      const stored = page.slice(start, start + ids.length);
      if (stored.length < ids.length || stored.some((event, i) => event.id !== ids[i])) {
        throw new Error(
          `Append to ${streamName}: only some of its event ids are already stored; ` +
            'a retry must resend exactly the same events',
        );
      }
      const last = stored.at(-1)!;
      return { nextExpectedRevision: last.revision, lastGlobalPosition: last.globalPosition };
    }
    if (!full) return undefined;
    from += CHECK_PAGE;
  }
}

/** A leader-only read of one stream: an unknown stream reads as empty; not-leader is retried. */
async function readFromLeader(
  calls: Calls,
  streamName: string,
  options: { direction: 'forwards' | 'backwards'; fromRevision: bigint | 'end'; maxCount: number },
): Promise<ResolvedEvent[]> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await calls.run(`the check read of ${streamName}`, async ({ signal, deadlineMs }) => {
        const events: ResolvedEvent[] = [];
        const read = { ...options, requiresLeader: true, deadline: deadlineMs };
        for await (const resolved of calls.client.readStream(streamName, read)) {
          if (signal.aborted) break;
          events.push(resolved);
        }
        return events;
      });
    } catch (error) {
      if (errorType(error) === 'stream-not-found') return [];
      if (errorType(error) !== 'not-leader' || attempt >= NOT_LEADER_RETRIES) throw error;
    }
  }
}
