/** The first `max` items and how many more there are, for the '+N' badges on shop cards. */
export function firstWithRest<T>(items: readonly T[], max: number): { shown: T[]; rest: number } {
  return { shown: items.slice(0, max), rest: Math.max(items.length - max, 0) };
}
