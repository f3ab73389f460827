import { z } from 'zod';

/**
 * An event's contract: its type, the schema of its current version, and upcasters that lift
 * older stored versions to the current one. Stored events carry `schemaVersion` in metadata;
 * old versions are upcast on read, never rewritten.
 */
export interface EventDefinition<Type extends string, Schema extends z.ZodType> {
  type: Type;
  version: number;
  schema: Schema;
  /** upcasters[v] turns version v data into version v + 1 data. */
  upcasters: Record<number, (data: unknown) => unknown>;
}

export function defineEvent<Type extends string, Schema extends z.ZodType>(
  type: Type,
  schema: Schema,
  options: { version?: number; upcasters?: Record<number, (data: unknown) => unknown> } = {},
): EventDefinition<Type, Schema> {
  return { type, schema, version: options.version ?? 1, upcasters: options.upcasters ?? {} };
}

export const isoInstant = z.iso.datetime({ offset: true });
/**
 * The expression `isoInstant` checks, from zod's own builder, for a reader that tests an instant
 * per event: `safeParse` allocates a result and runs zod's check machinery around the same test.
 */
export const isoInstantPattern = z.regexes.datetime({ offset: true });
