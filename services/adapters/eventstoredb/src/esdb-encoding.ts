import { randomUUID } from 'node:crypto';
import type { JSONType } from '@kurrent/kurrentdb-client';
import type { NewEvent } from '@qrshirt/core';

/** An event ready for the client: its payloads already JSON, its size known. */
export interface EncodedEvent {
  id: string;
  type: string;
  data: JSONType;
  metadata: JSONType;
  /** What the server counts against its append size limit, with room for the envelope. */
  bytes: number;
}

/**
 * The server counts data, metadata and twice the type's length against `MaxAppendSize`; the
 * rest covers the id and the content-type header that travel with each event.
 */
const PER_EVENT_OVERHEAD_BYTES = 128;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Serialised here, not by the client: it serialises inside an async promise executor, where a
 * BigInt or a cycle becomes an unhandled rejection that exits Node and leaves the append
 * pending. Here a payload that is not JSON fails its own call only, as with SQLite.
 */
export function encodeEvents(streamName: string, events: readonly NewEvent[]): EncodedEvent[] {
  const encoded = events.map((event, i) => {
    const data = toJson(streamName, i, event.type, 'data', event.data) ?? 'null';
    const metadata = toJson(streamName, i, event.type, 'metadata', event.metadata ?? {}) ?? '{}';
    return {
      id: eventId(streamName, event.id),
      type: event.type,
      data: JSON.parse(data) as JSONType,
      metadata: JSON.parse(metadata) as JSONType,
      bytes:
        Buffer.byteLength(data) +
        Buffer.byteLength(metadata) +
        2 * Buffer.byteLength(event.type) +
        PER_EVENT_OVERHEAD_BYTES,
    };
  });
  if (new Set(encoded.map((event) => event.id)).size !== encoded.length) {
    throw new Error(`Append to ${streamName}: the same event id appears twice in the call`);
  }
  return encoded;
}

/**
 * The server refuses ids that are not UUIDs and stores them lower-case: normalised here, a retry
 * with the caller's spelling still finds its events.
 */
function eventId(streamName: string, id: string | undefined): string {
  if (id === undefined) return randomUUID();
  if (!UUID.test(id)) throw new Error(`Append to ${streamName}: event id "${id}" is not a UUID`);
  return id.toLowerCase();
}

function toJson(streamName: string, index: number, type: string, field: string, value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(
      `Append to ${streamName}: the ${field} of event ${index} (${type}) cannot be stored as JSON: ${reason}`,
      {
        cause: error,
      },
    );
  }
}
