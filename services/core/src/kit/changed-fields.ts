import { isDeepStrictEqual } from 'node:util';

/**
 * The requested fields whose values differ from the current ones, so update events carry only
 * real changes and an update that changes nothing can be recognised.
 */
export function changedFields<Fields extends object>(current: Fields, requested: Partial<Fields>): Partial<Fields> {
  const changes: Partial<Fields> = {};
  for (const key of Object.keys(requested) as (keyof Fields)[]) {
    const value = requested[key];
    if (value !== undefined && !isDeepStrictEqual(value, current[key])) changes[key] = value;
  }
  return changes;
}
