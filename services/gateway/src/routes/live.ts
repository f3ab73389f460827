import { type Fundraiser, idParams } from '@qrshirt/contracts';
import { fundraiserDecider, fundraiserStreamName } from '@qrshirt/core';
import { type ChangeFeed, liveTopics } from '@qrshirt/projections';
import { type Request, Router } from 'express';
import { requireSelf } from '../auth/authenticate';
import type { EventStream, EventStreams } from '../http/event-streams';
import { HttpError, notFound } from '../http/http-error';
import { parseInput } from '../http/validate';
import type { RouteDeps } from './route-deps';

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
export function liveRoutes({ commands, fundraisers, live }: RouteDeps & { live: LiveDeps }): Router {
  const { changeFeed, streams } = live;

  async function findFundraiser(id: string): Promise<Pick<Fundraiser, 'userId'> | null> {
    return (
      (await fundraisers.getFundraiser(id)) ?? (await commands.loadState(fundraiserStreamName(id), fundraiserDecider))
    );
  }

  return Router()
    .get('/api/fundraisers/:id/live', async (req, res) => {
      const { id } = parseInput(idParams, req.params);
      if (!req.user) throw new HttpError(401, 'Authentication required for this request');
      const fundraiser = await findFundraiser(id);
      if (!fundraiser) throw notFound('Fundraiser');
      if (req.user.anonymous || req.user.uid !== fundraiser.userId) {
        throw new HttpError(403, 'Only the owner of this fundraiser can see its stats');
      }
      const stream = streams.open(res);
      const push = pushLatest(stream, () => fundraisers.getStats(id), req);
      stream.onClose(changeFeed.subscribe(liveTopics.fundraiser(id), push));
      push();
    })
    .get('/api/user/:id/live', async (req, res) => {
      const { id } = parseInput(idParams, req.params);
      requireSelf(id, req.user);
      const stream = streams.open(res);
      // The user's fundraisers, followed as they appear: a new one is announced on the user's topic.
      const following = new Map<string, () => void>();
      const push = pushLatest(
        stream,
        async () => {
          const stats = await fundraisers.getUserStats(id);
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
    });
}
