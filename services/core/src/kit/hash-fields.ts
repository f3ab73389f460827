import type { ReadModelOp } from '../ports/read-model-store';

/**
 * Read-model hashes hold JSON-encoded values, so null, numbers, arrays and strings round-trip,
 * and counters written with hincrby still decode as numbers.
 */
export function hsetFields(key: string, fields: Record<string, unknown>): ReadModelOp[] {
  return Object.entries(fields)
    .filter(([, value]) => value !== undefined)
    .map(([field, value]) => ({ op: 'hset', key, field, value: JSON.stringify(value) }));
}

export function decodeHash(hash: Record<string, string>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(hash).map(([field, value]) => [field, JSON.parse(value)]));
}

/**
 * The UTC day of an ISO instant: the per-day series are in UTC. An instant in UTC already (every
 * one this product writes, `toISOString()`) starts with its day, taken as it is: this runs for
 * every scan in several projections.
 */
export const dayOf = (isoInstant: string) =>
  isoInstant.endsWith('Z') ? isoInstant.slice(0, 10) : new Date(isoInstant).toISOString().slice(0, 10);

/** `<yyyy-mm-dd>T<hh:mm>`, in UTC. */
export const utcMinuteOf = (isoInstant: string) =>
  (isoInstant.endsWith('Z') ? isoInstant : new Date(isoInstant).toISOString()).slice(0, 16);
