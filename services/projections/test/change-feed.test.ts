import { fundraisersProjector } from '@qrshirt/core';
import { eventMetadata } from '@qrshirt/contracts';
import { afterEach, describe, expect, it } from 'vitest';
import { WAIT_MS } from '@qrshirt/test-support';
import { describeWithRedis } from '@qrshirt/test-support/vitest';
import type { ChangeFeed } from '../src/change-feed/change-feed';
import { createMemoryChangeFeed } from '../src/change-feed/memory-change-feed';
import { publishLiveChanges } from '../src/change-feed/publish-live-changes';
import { createRedisChangeFeed } from '@qrshirt/redis';
import { createProjectionRunner } from '../src/runner';
import { createMemoryReadModelStore } from '../src/store/memory-read-model-store';
import { openTempEventStore } from './support/event-store';
import { createRecordingLog } from './support/recording-log';
import { until } from './support/until';

interface FeedKind {
  name: string;
  /** A feed for the process that projects, and one for a process that only listens. */
  open(): Promise<{ publisher: ChangeFeed; listener: ChangeFeed }>;
}

function describeChangeFeed(kind: FeedKind): void {
  describe(`the ${kind.name} change feed`, () => {
    const opened: ChangeFeed[] = [];
    afterEach(async () => {
      await Promise.all(opened.splice(0).map((feed) => feed.close()));
    });

    async function feeds() {
      const pair = await kind.open();
      opened.push(pair.publisher, pair.listener);
      return pair;
    }

    it('tells each listener about its topics, once per notice, until it stops listening', async () => {
      const { publisher, listener } = await feeds();
      const heard: string[] = [];
      const stopA = listener.subscribe('fundraiser:a', () => heard.push('a'));
      listener.subscribe('fundraiser:b', () => heard.push('b'));
      listener.subscribe('fundraiser:b', () => heard.push('b again'));

      await publisher.publish(['fundraiser:a', 'fundraiser:a', 'user:u']);
      await until(() => heard.length === 1, 'a heard');
      await publisher.publish(['fundraiser:b']);
      await until(() => heard.length === 3, 'b heard twice');
      stopA();
      await publisher.publish(['fundraiser:a', 'fundraiser:b']);
      await until(() => heard.length === 5, 'b heard again');
      expect(heard).toEqual(['a', 'b', 'b again', 'b', 'b again']);
    });

    it('keeps telling the others when one listener throws', async () => {
      const { publisher, listener } = await feeds();
      const heard: string[] = [];
      listener.subscribe('fundraiser:x', () => {
        throw new Error('broken listener');
      });
      listener.subscribe('fundraiser:x', () => heard.push('x'));
      await publisher.publish(['fundraiser:x']);
      await until(() => heard.length === 1, 'the second listener heard');
    });
  });
}

describeChangeFeed({
  name: 'in-process',
  async open() {
    const feed = createMemoryChangeFeed();
    return { publisher: feed, listener: feed };
  },
});

describeWithRedis('change feed over Redis pub/sub', (redis) => {
  describeChangeFeed({
    name: 'Redis',
    async open() {
      // Another process's feed, on a channel of its own so parallel runs do not hear each other.
      const channel = `${redis.freshPrefix()}:changes`;
      const publisher = createRedisChangeFeed({ url: redis.url, channel });
      const listener = createRedisChangeFeed({ url: redis.url, channel });
      await Promise.all([publisher.ready, listener.ready]);
      return { publisher, listener };
    },
  });
});

describe('publishLiveChanges as the fundraisers runner’s commit hook', () => {
  it('announces each committed batch’s fundraisers, and the owners of new ones, after the commit', async () => {
    const { eventStore, dispose } = await openTempEventStore();
    const store = createMemoryReadModelStore();
    const feed = createMemoryChangeFeed();
    const seen: string[] = [];
    for (const topic of ['fundraiser:f-1', 'fundraiser:f-2', 'user:u-1']) {
      feed.subscribe(topic, () => {
        // What a live stream reads when told: the commit must already be there.
        void store
          .projection(fundraisersProjector.name)
          .checkpoint()
          .then((checkpoint) => seen.push(`${topic}@${checkpoint}`));
      });
    }
    const at = '2025-03-01T10:00:00.000Z';
    await eventStore.appendToStream('fundraiser-f-1', [
      {
        type: 'FundraiserCreated',
        data: { fundraiserId: 'f-1', userId: 'u-1', charityId: 'c', shirtId: 's', name: 'F', at },
        metadata: eventMetadata('FundraiserCreated'),
      },
    ]);
    await eventStore.appendToStream('scans-p0', [
      {
        type: 'ScanRecorded',
        data: { scanId: 's-1', fundraiserId: 'f-2', at },
        metadata: eventMetadata('ScanRecorded'),
      },
      {
        type: 'ScanRecorded',
        data: { scanId: 's-2', fundraiserId: 'f-2', at },
        metadata: eventMetadata('ScanRecorded'),
      },
    ]);
    const runner = createProjectionRunner({
      eventStore,
      store,
      projector: fundraisersProjector,
      log: createRecordingLog().log,
      onCommitted: publishLiveChanges(feed),
    });
    runner.start();
    try {
      await until(() => seen.length === 3, 'three topics announced');
      expect(seen.sort()).toEqual(['fundraiser:f-1@3', 'fundraiser:f-2@3', 'user:u-1@3']);
    } finally {
      await runner.stop();
      await feed.close();
      await dispose();
    }
  });

  it('does not stop projecting when announcing fails', async () => {
    const { eventStore, dispose } = await openTempEventStore();
    const recorded = createRecordingLog();
    const runner = createProjectionRunner({
      eventStore,
      store: createMemoryReadModelStore(),
      projector: fundraisersProjector,
      log: recorded.log,
      onCommitted() {
        throw new Error('feed down');
      },
    });
    await eventStore.appendToStream('scans-p0', [
      {
        type: 'ScanRecorded',
        data: { scanId: 's-1', fundraiserId: 'f-1', at: '2025-03-01T10:00:00.000Z' },
        metadata: eventMetadata('ScanRecorded'),
      },
    ]);
    runner.start();
    try {
      await runner.waitUntilCaughtUp(WAIT_MS);
      expect(runner.status()).toMatchObject({ checkpoint: 1, lastError: null });
      expect(recorded.warnings.map((entry) => entry.message)).toEqual(['onCommitted failed']);
    } finally {
      await runner.stop();
      await dispose();
    }
  });
});
