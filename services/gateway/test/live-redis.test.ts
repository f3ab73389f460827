import { fundraisersProjector } from '@qrshirt/core';
import { allProjectors, createProjectionRunner, type ProjectionRunner, publishLiveChanges } from '@qrshirt/projections';
import { createRedisChangeFeed, createRedisReadModelStore } from '@qrshirt/redis';
import { pino } from 'pino';
import { afterAll, expect, it } from 'vitest';
import { describeWithRedis } from '@qrshirt/test-support/vitest';
import { openLiveStream } from './support/live-stream';
import { createFundraiser, scanner } from '@qrshirt/test-support';
import { asUser, startTestServer, type TestServer, userToken } from './support/test-server';
import { donateConfirmed } from './support/webhooks';

// The gateway writes and listens on Redis's default keys and channel, so it gets a server of its own.
describeWithRedis(
  'live updates from a projector in another process, over Redis',
  (redis) => {
    let server: TestServer | undefined;
    let runners: ProjectionRunner[] = [];
    const closing: (() => Promise<void>)[] = [];
    afterAll(async () => {
      await Promise.all(runners.map((runner) => runner.stop()));
      for (const close of closing) await close();
      await server?.stop();
    });

    it('a scan reaches an open stream of a gateway that does not project', async () => {
      server = await startTestServer({ env: { REDIS_URL: redis.url, PROJECTIONS: 'off' } });
      // The projector process: its own event store reader, Redis client and change feed.
      const store = createRedisReadModelStore({ url: redis.url });
      const feed = createRedisChangeFeed({ url: redis.url });
      closing.push(
        () => feed.close(),
        () => store.close(),
      );
      const log = pino({ level: 'silent' });
      runners = allProjectors.map((projector) =>
        createProjectionRunner({
          eventStore: server!.embedded.eventStore,
          store,
          projector,
          log,
          ...(projector === fundraisersProjector && { onCommitted: publishLiveChanges(feed) }),
        }),
      );
      for (const runner of runners) runner.start();
      await Promise.all(runners.map((runner) => runner.waitUntilCaughtUp()));

      const { id } = await createFundraiser(server.api, asUser('redis-live-owner'));
      await Promise.all(runners.map((runner) => runner.waitUntilCaughtUp()));
      const owner = { token: userToken('redis-live-owner') };
      const stream = await openLiveStream(server.url, `/api/fundraisers/${id}/live`, owner);
      closing.unshift(async () => stream.close());
      expect(stream.status).toBe(200);
      await stream.next((stats) => stats.scans === 0);

      await server.api('POST', `/api/fundraisers/${id}/scan`, { headers: scanner(1) });
      await donateConfirmed(server.api, id, 3);
      expect(await stream.next((stats) => stats.scans === 1 && stats.donations === 1)).toMatchObject({
        amountRaised: 3,
      });
    });
  },
  { ownServer: true },
);
