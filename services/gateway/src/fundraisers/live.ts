import type { fundraiserStreamRoutes, userStreamRoutes } from '@qrshirt/contracts';
import { assertSelf } from '@qrshirt/core';
import { type ChangeFeed, liveTopics } from '@qrshirt/projections';
import type { Request } from 'express';
import type { EventStream, EventStreams } from '../http/event-streams';
import type { HandlersOf } from '../http/route-table';
import type { RouteDeps } from '../route-deps';

/** What the live routes need beyond the shared route deps; built by the composition root. */
export interface LiveDeps {
  changeFeed: ChangeFeed;
  streams: EventStreams;
}

/**
 * Sends `read()`'s answer as a `stats` event now and after each change announced, one read at a
 * time: changes that arrive during a read cost one more read, not one each, and an answer equal
 * to the last one sent is not sent again.
 */
function pushLatest(stream: EventStream, read: () => Promise<object>, req: Request): () => void {
  let reading = false;
  let again = false;
  let lastSent = '';
  return function push() {
    if (reading) {
      again = true;
      return;
    }
    reading = true;
    void (async () => {
      try {
        do {
          again = false;
          const body = JSON.stringify(await read());
          if (body !== lastSent) {
            lastSent = body;
            stream.send('stats', body);
          }
        } while (again && !stream.closed);
      } catch (error) {
        // The read models did not answer; the next change tries again.
        req.log.warn({ err: error }, 'live update failed');
      } finally {
        reading = false;
      }
    })();
  };
}

/**
 * Owners' figures as server-sent events (`event: stats`, the same JSON as the matching /stats
 * route), pushed whenever the projector commits a scan or donation of theirs. Authorised like
 * /stats, with the usual headers: clients read the stream with fetch, so no token in the URL.
 */
export function liveHandlers({
  useCases,
  live,
}: RouteDeps & { live: LiveDeps }): HandlersOf<typeof fundraiserStreamRoutes & typeof userStreamRoutes> {
  const { changeFeed, streams } = live;
  const { fundraisers } = useCases;

  return {
    async streamFundraiserStats({ params: { id }, user, req, res }) {
      await fundraisers.owned(id, user);
      const stream = streams.open(res, user.uid);
      const push = pushLatest(stream, () => fundraisers.stats(id, user), req);
      stream.onClose(changeFeed.subscribe(liveTopics.fundraiser(id), push));
      push();
    },
    streamUserStats({ params: { id }, user, req, res }) {
      assertSelf(id, user);
      const stream = streams.open(res, user.uid);
      // The user's fundraisers, followed as they appear: a new one is announced on the user's topic.
      const following = new Map<string, () => void>();
      const push = pushLatest(
        stream,
        async () => {
          const stats = await fundraisers.userStats(id, user);
          for (const { id: fundraiserId } of stats.fundraiserStats) {
            if (!following.has(fundraiserId) && !stream.closed) {
              following.set(fundraiserId, changeFeed.subscribe(liveTopics.fundraiser(fundraiserId), push));
            }
          }
          return stats;
        },
        req,
      );
      stream.onClose(changeFeed.subscribe(liveTopics.user(id), push));
      stream.onClose(() => {
        for (const unsubscribe of following.values()) unsubscribe();
      });
      push();
    },
  };
}
