import { Redis } from 'ioredis';
import type { ChangeFeed } from '@qrshirt/projections';
import { createTopicListeners } from '@qrshirt/projections';

export interface RedisChangeFeedOptions {
  url: string;
  /** The pub/sub channel; default 'qr:live:changes'. */
  channel?: string;
  onError?: (error: unknown) => void;
}

/**
 * The change feed over Redis pub/sub: one channel, one message per committed batch (a JSON
 * list of topics), each process dispatching to its own listeners. One channel rather than one
 * per topic keeps subscribing synchronous: a live stream listens from the moment it opens, with
 * no window in which a SUBSCRIBE is still on its way.
 */
export function createRedisChangeFeed(options: RedisChangeFeedOptions): ChangeFeed & { ready: Promise<void> } {
  const channel = options.channel ?? 'qr:live:changes';
  const onError = options.onError ?? (() => {});
  const listeners = createTopicListeners(onError);
  const publisher = new Redis(options.url, { lazyConnect: true });
  const subscriber = new Redis(options.url);
  // ioredis reports connection trouble as events and reconnects by itself.
  publisher.on('error', onError);
  subscriber.on('error', onError);
  subscriber.on('message', (from: string, message: string) => {
    if (from !== channel) return;
    let topics: unknown;
    try {
      topics = JSON.parse(message);
    } catch (error) {
      onError(error);
      return;
    }
    if (Array.isArray(topics)) listeners.dispatch(topics.filter((topic): topic is string => typeof topic === 'string'));
  });
  const ready = subscriber.subscribe(channel).then(() => undefined);
  ready.catch(onError);
  let closed = false;

  return {
    ready,
    async publish(topics) {
      if (closed || topics.length === 0) return;
      try {
        await publisher.publish(channel, JSON.stringify(topics));
      } catch (error) {
        onError(error);
      }
    },
    subscribe: (topic, listener) => listeners.add(topic, listener),
    async close() {
      if (closed) return;
      closed = true;
      listeners.clear();
      await Promise.all([publisher.quit().catch(() => undefined), subscriber.quit().catch(() => undefined)]);
    },
  };
}
