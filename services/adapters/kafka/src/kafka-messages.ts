import { z } from 'zod';
import { analyticsEventTypes, eventDefinitions, scanRequest } from '@qrshirt/contracts';
import type { AnalyticsFact, ScanFact } from '@qrshirt/core';

/**
 * What travels on the ingestion topics: the event type and its data, as JSON. A scan travels as
 * the request the gateway accepted (`scanRequest`): the ingestor decides whether it counts.
 */
export interface IngestionMessage {
  type: 'ScanRecorded' | AnalyticsFact['type'];
  data: ScanFact | AnalyticsFact['data'];
}

const envelope = z.object({
  type: z.enum(['ScanRecorded', ...analyticsEventTypes]),
  data: z.unknown(),
});

export const encodeMessage = (message: IngestionMessage): string => JSON.stringify(message);

/** The message, or why it cannot be ingested (it then goes to the dead-letter topic). */
export function decodeMessage(
  value: Buffer | null,
): { ok: true; message: IngestionMessage } | { ok: false; reason: string } {
  if (value === null) return { ok: false, reason: 'empty message' };
  let json: unknown;
  try {
    json = JSON.parse(value.toString('utf8'));
  } catch {
    return { ok: false, reason: 'not JSON' };
  }
  const parsed = envelope.safeParse(json);
  if (!parsed.success) return { ok: false, reason: `not an ingestion message: ${parsed.error.issues[0]?.message}` };
  // A scan from a gateway older than counting has no hashes: they read as null (counted as then).
  const schema = parsed.data.type === 'ScanRecorded' ? scanRequest : eventDefinitions[parsed.data.type].schema;
  const data = schema.safeParse(parsed.data.data);
  if (!data.success) return { ok: false, reason: `invalid ${parsed.data.type}: ${data.error.issues[0]?.message}` };
  return { ok: true, message: { type: parsed.data.type, data: data.data } };
}
