import type { Position, ReadPosition, RecordedEvent } from '@kurrent/kurrentdb-client';
import type { StoredEvent } from '@qrshirt/core';

/**
 * EventStoreDB's own streams and events ($-prefixed: stats, settings, metadata, projections)
 * are not ours and never reach callers.
 */
export function isSystemEvent(event: RecordedEvent): boolean {
  return event.type.startsWith('$') || event.streamId.startsWith('$');
}

/**
 * Our global position is EventStoreDB's commit position. Every event appended through the gRPC
 * API is its own implicitly committed record, so commit positions are unique and increasing.
 */
export function globalPositionOf(event: RecordedEvent, commitPosition?: bigint): number {
  const commit = event.position?.commit ?? commitPosition;
  if (commit === undefined) {
    throw new Error(`EventStoreDB returned event ${event.id} without a position (server 22.6 or newer is needed)`);
  }
  return Number(commit);
}

/** Where to resume reading or subscribing: EventStoreDB wants both halves of the position. */
export function readPositionAfter(globalPosition: number): ReadPosition {
  if (globalPosition <= 0) return 'start';
  const at = BigInt(globalPosition);
  return { commit: at, prepare: at } satisfies Position;
}

/** Where a backwards read starts: the end, or the cursor's position (skipped by the reader). */
export function readPositionBefore(globalPosition: number | undefined): ReadPosition {
  if (globalPosition === undefined) return 'end';
  const at = BigInt(globalPosition);
  return { commit: at, prepare: at } satisfies Position;
}

export function toStoredEvent(event: RecordedEvent, globalPosition: number): StoredEvent {
  const metadata = event.metadata;
  return {
    id: event.id,
    streamName: event.streamId,
    revision: Number(event.revision),
    globalPosition,
    type: event.type,
    data: event.data,
    metadata: isPlainObject(metadata) ? metadata : {},
    recordedAt: event.created,
  };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Uint8Array);
}
