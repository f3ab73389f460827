import type { ChangeFeed } from './change-feed';
import { createTopicListeners } from './topic-listeners';

/** The change feed within one process (embedded mode without Redis, tests). */
export function createMemoryChangeFeed(options: { onListenerError?: (error: unknown) => void } = {}): ChangeFeed {
  const listeners = createTopicListeners(options.onListenerError ?? (() => {}));
  let closed = false;
  return {
    async publish(topics) {
      if (closed || topics.length === 0) return;
      // Later, not inside the publisher's call: the projection runner publishes mid-batch.
      queueMicrotask(() => listeners.dispatch(topics));
    },
    subscribe: (topic, listener) => listeners.add(topic, listener),
    async close() {
      closed = true;
      listeners.clear();
    },
  };
}
