/** What `countingLogReads` wraps: an event store's reads of the whole log. */
interface LogReads {
  readAll(this: void, options?: never): Promise<unknown>;
  readFiltered(this: void, options: { eventTypes?: readonly string[] }): Promise<unknown>;
}

/**
 * The store with its reads of the whole log recorded, `readAll` or `readFiltered <types>`, as a
 * test of what must find its data without them asks. The store's own subscriptions read the log
 * inside it and are not recorded.
 */
export function countingLogReads<Store extends LogReads>(store: Store): { store: Store; reads: string[] } {
  const reads: string[] = [];
  const readAll: LogReads['readAll'] = (options) => {
    reads.push('readAll');
    return store.readAll(options);
  };
  const readFiltered: LogReads['readFiltered'] = (options) => {
    reads.push(`readFiltered ${options.eventTypes?.join(',') ?? ''}`);
    return store.readFiltered(options);
  };
  return { reads, store: { ...store, readAll, readFiltered } };
}
