/**
 * The change-feed port: the projector tells the gateways which read models it just committed,
 * so live streams (server-sent events) re-read and push fresh figures instead of polling.
 * Adapters: in process (one process runs both), Redis pub/sub (a projector process feeds any
 * number of gateways). Delivery is at most once: a live client may miss an update while Redis
 * reconnects, and gets the current figures again with the next one.
 */
export interface ChangeFeed {
  /** Announces that what these topics name has changed. Never rejects: a lost notice is no failure. */
  publish(topics: readonly string[]): Promise<void>;
  /** Calls `listener` whenever `topic` is published; returns the function that stops it. */
  subscribe(topic: string, listener: () => void): () => void;
  close(): Promise<void>;
}

/** What live streams listen to: a fundraiser's figures, or a user's set of fundraisers. */
export const liveTopics = {
  fundraiser: (fundraiserId: string) => `fundraiser:${fundraiserId}`,
  user: (userId: string) => `user:${userId}`,
};
