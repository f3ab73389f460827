/** Local listeners per topic, shared by the adapters, each listener isolated from the others. */
export function createTopicListeners(onListenerError: (error: unknown) => void) {
  const byTopic = new Map<string, Set<() => void>>();
  return {
    add(topic: string, listener: () => void): () => void {
      // A listener is held in a wrapper so the same function can subscribe twice and leave once.
      const entry = () => listener();
      let listeners = byTopic.get(topic);
      if (!listeners) {
        listeners = new Set();
        byTopic.set(topic, listeners);
      }
      listeners.add(entry);
      return () => {
        listeners.delete(entry);
        if (listeners.size === 0 && byTopic.get(topic) === listeners) byTopic.delete(topic);
      };
    },
    dispatch(topics: readonly string[]): void {
      for (const topic of new Set(topics)) {
        for (const listener of [...(byTopic.get(topic) ?? [])]) {
          try {
            listener();
          } catch (error) {
            onListenerError(error);
          }
        }
      }
    },
    clear(): void {
      byTopic.clear();
    },
  };
}
