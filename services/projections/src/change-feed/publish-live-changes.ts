import type { StoredEvent } from '@qrshirt/core';
import { type ChangeFeed, liveTopics } from './change-feed';

/**
 * The fundraisers projection's commit hook (the runner's `onCommitted`): the fundraisers whose
 * figures a committed batch changed, and the owners of fundraisers it created or they claimed, in one notice.
 * Only this projection's commits may announce them: the live streams read its read model.
 */
export function publishLiveChanges(feed: ChangeFeed): (events: readonly StoredEvent[]) => void {
  return (events) => {
    const topics = new Set<string>();
    for (const { type, data } of events) {
      const { fundraiserId, userId } = data as { fundraiserId?: unknown; userId?: unknown };
      if (typeof fundraiserId === 'string') topics.add(liveTopics.fundraiser(fundraiserId));
      if ((type === 'FundraiserCreated' || type === 'FundraiserClaimed') && typeof userId === 'string')
        topics.add(liveTopics.user(userId));
    }
    void feed.publish([...topics]);
  };
}
