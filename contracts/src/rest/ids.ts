import { z } from 'zod';

/** Ids in paths: slugs for the seeded catalogue, UUIDs for everything created later. */
export const resourceId = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[A-Za-z0-9][A-Za-z0-9_-]*$/, 'must be letters, digits, "-" or "_"');

export const idParams = z.object({ id: resourceId });
