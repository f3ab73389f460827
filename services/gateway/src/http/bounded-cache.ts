/** A Map that forgets its oldest entries beyond `capacity`, for facts that never change. */
export function createBoundedCache<Key, Value>(capacity: number) {
  const entries = new Map<Key, Value>();
  return {
    get: (key: Key) => entries.get(key),
    set(key: Key, value: Value) {
      entries.set(key, value);
      if (entries.size > capacity) entries.delete(entries.keys().next().value as Key);
    },
  };
}
