import type { AppendExpectedRevision, EventData, EventStoreDBClient } from '@eventstore/db-client';
import { ConcurrencyError, type AppendResult, type ExpectedRevision } from '@qrshirt/core';
import { takeChunk, type EncodedEvent } from './esdb-encoding';
import { globalPositionOf } from './esdb-events';
import { appendSizeRefusal, errorType, isUnknownOutcome } from './esdb-errors';

/** EventStoreDB's default `MaxAppendSize`: 1 MiB. */
export const DEFAULT_MAX_APPEND_BYTES = 1_048_576;
const RETRY_DELAYS_MS = [100, 400, 1_600];

export type AppendClient = Pick<EventStoreDBClient, 'appendToStream' | 'readStream'>;

interface EsdbAppendContext {
  client: AppendClient;
  jsonEvent(event: {
    id: string;
    type: string;
    data: EncodedEvent['data'];
    metadata: EncodedEvent['metadata'];
  }): EventData;
  toRevision(expected: ExpectedRevision): AppendExpectedRevision;
  maxAppendBytes: number;
  /** Waits between attempts; tests pass one that does not. */
  sleep?: (ms: number) => Promise<void>;
}

/**
 * Appends in chunks the server accepts, each expecting the revision the previous one ended at,
 * so the chain stays exact. A chunk the server still finds too large is split at its limit. The
 * chunks are not one transaction: if one fails, the earlier ones stay, and retrying the same
 * events (same ids) resumes after them.
 */
export async function appendEncoded(
  context: EsdbAppendContext,
  streamName: string,
  events: readonly EncodedEvent[],
  expected: ExpectedRevision,
): Promise<AppendResult> {
  let maxBytes = context.maxAppendBytes;
  let expectedNow = expected;
  let done = 0;
  let result: AppendResult | undefined;
  while (done < events.length) {
    const chunk = takeChunk(streamName, events.slice(done), maxBytes);
    try {
      result = await appendChunk(context, streamName, chunk, expectedNow);
    } catch (error) {
      const refusal = appendSizeRefusal(error);
      if (!refusal) throw error;
      const smaller = refusal.maxAppendSize ?? Math.floor(chunkBytes(chunk) / 2);
      if (chunk.length === 1 || smaller >= maxBytes) {
        throw new Error(`Append to ${streamName}: EventStoreDB refused ${chunk.length} event(s) as too large`, {
          cause: error,
        });
      }
      maxBytes = smaller;
      continue;
    }
    done += chunk.length;
    expectedNow = result.nextExpectedRevision;
  }
  return result!;
}

function chunkBytes(chunk: readonly EncodedEvent[]): number {
  return chunk.reduce((sum, event) => sum + event.bytes, 0);
}

/**
 * One append, retried with the same ids and expected revision while its outcome is unknown: the
 * server answers a repeat of a committed write with its earlier result, or with a wrong expected
 * version that `earlierAppend` recognises.
 */
async function appendChunk(
  context: EsdbAppendContext,
  streamName: string,
  chunk: readonly EncodedEvent[],
  expected: ExpectedRevision,
): Promise<AppendResult> {
  const proposed = chunk.map(({ id, type, data, metadata }) => context.jsonEvent({ id, type, data, metadata }));
  const ids = chunk.map((event) => event.id);
  const sleep = context.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  for (let attempt = 0; ; attempt++) {
    try {
      const result = await context.client.appendToStream(streamName, proposed, {
        expectedRevision: context.toRevision(expected),
      });
      const revision = Number(result.nextExpectedRevision);
      // The server answers a write with its position; a repeat it recognised answers without one.
      if (result.position)
        return { nextExpectedRevision: revision, lastGlobalPosition: Number(result.position.commit) };
      return await storedAt(context.client, streamName, revision);
    } catch (error) {
      if (errorType(error) === 'wrong-expected-version') {
        const retried = await earlierAppend(context.client, streamName, ids, expected);
        if (retried) return retried;
        const actual = (error as { actualVersion?: unknown }).actualVersion;
        throw new ConcurrencyError(streamName, expected, typeof actual === 'bigint' ? Number(actual) : 'no_stream');
      }
      const delay = RETRY_DELAYS_MS[attempt];
      if (delay === undefined || !isUnknownOutcome(error)) throw error;
      await sleep(delay);
    }
  }
}

/** The position of the event at `revision`, read from the leader: a follower may not have it yet. */
async function storedAt(client: AppendClient, streamName: string, revision: number): Promise<AppendResult> {
  for await (const resolved of client.readStream(streamName, {
    fromRevision: BigInt(revision),
    maxCount: 1,
    requiresLeader: true,
  })) {
    if (resolved.event) {
      return {
        nextExpectedRevision: revision,
        lastGlobalPosition: globalPositionOf(resolved.event, resolved.commitPosition),
      };
    }
  }
  throw new Error(`Stream ${streamName} has no event at revision ${revision} right after appending it`);
}

/**
 * A retry the server did not recognise as one (it only does for the same expected revision):
 * the ids stored where this append expected to write them mean it succeeded before.
 */
async function earlierAppend(
  client: AppendClient,
  streamName: string,
  ids: string[],
  expected: ExpectedRevision,
): Promise<AppendResult | undefined> {
  if (typeof expected !== 'number' && expected !== 'no_stream') return undefined;
  const firstRevision = expected === 'no_stream' ? 0 : expected + 1;
  const stored: { id: string; revision: number; globalPosition: number }[] = [];
  try {
    for await (const resolved of client.readStream(streamName, {
      fromRevision: BigInt(firstRevision),
      maxCount: ids.length,
      requiresLeader: true,
    })) {
      const event = resolved.event;
      if (event) {
        stored.push({
          id: event.id,
          revision: Number(event.revision),
          globalPosition: globalPositionOf(event, resolved.commitPosition),
        });
      }
    }
  } catch (error) {
    if (errorType(error) === 'stream-not-found') return undefined;
    throw error;
  }
  const matching = stored.filter((event, i) => event.id === ids[i]).length;
  if (matching === 0) return undefined;
  if (matching < ids.length) {
    throw new Error(
      `Append to ${streamName}: only some of its event ids are already stored; ` +
        'a retry must resend exactly the same events',
    );
  }
  const last = stored.at(-1)!;
  return { nextExpectedRevision: last.revision, lastGlobalPosition: last.globalPosition };
}
