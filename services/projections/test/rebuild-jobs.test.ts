import { type EventStore, fundraisersProjector } from '@qrshirt/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WAIT_MS } from '@qrshirt/test-support';
import { describeWithRedis } from '@qrshirt/test-support/vitest';
import { createRebuildJobs } from '../src/rebuild-jobs';
import { createProjectionRunner } from '../src/runner';
import { spyOnCommits } from './support/commit-spy';
import { openTempEventStore } from './support/event-store';
import { expectFiguresAsGenerated } from './support/expect-figures';
import { createHistory } from './support/history';
import { type BackendKind, type ReadModelBackend, memoryBackend, redisBackend } from './support/read-model-backends';
import { createRecordingLog } from './support/recording-log';
import { until } from './support/until';

const clock = () => new Date('2025-03-10T08:00:00.000Z');

function describeRebuildJobs(kind: BackendKind): void {
  describe(`rebuild jobs on the ${kind.name} read-model store`, () => {
    let eventStore: EventStore;
    let dispose: () => Promise<void>;
    let backend: ReadModelBackend;

    beforeEach(async () => {
      const temp = await openTempEventStore();
      eventStore = temp.eventStore;
      dispose = () => temp.dispose();
      backend = kind.open();
    });
    afterEach(async () => {
      await dispose();
      await backend.close();
    });

    it('reports progress while it runs and the versions it switched between once done', async () => {
      const history = createHistory(eventStore, 5);
      await history.seed();
      await history.activity(5000);
      const store = backend.connect();
      const recorded = createRecordingLog();
      // Its first batch goes through and the next one waits: the job is caught between two.
      const commits = spyOnCommits(store);
      let commitsBegun = 0;
      const release = commits.hold(() => ++commitsBegun > 1);
      const jobs = createRebuildJobs({ eventStore, store: commits.store, log: recorded.log, clock });

      const started = jobs.start(fundraisersProjector);
      expect(started).toMatchObject({
        projection: 'fundraisers',
        state: 'running',
        startedAt: clock().toISOString(),
        finishedAt: null,
      });
      await until(() => commits.held() > 0, 'the rebuild’s second batch');
      const midway = jobs.get('fundraisers')!;
      release();
      await until(() => jobs.get('fundraisers')!.state !== 'running', 'the rebuild ended');

      const head = await eventStore.headPosition();
      // The fundraisers, scans and donations: every event of its types, and only those.
      const ofItsTypes = await eventStore.readAll({ eventTypes: fundraisersProjector.eventTypes });
      expect(ofItsTypes.length).toBeGreaterThan(5004);
      expect(ofItsTypes.length).toBeLessThan(head);
      expect(jobs.get('fundraisers')).toEqual({
        projection: 'fundraisers',
        state: 'done',
        fromVersion: 1,
        toVersion: 2,
        done: head,
        total: head,
        eventsProjected: ofItsTypes.length,
        startedAt: clock().toISOString(),
        finishedAt: clock().toISOString(),
        error: null,
      });
      expect(midway.state).toBe('running');
      expect(midway.done).toBeGreaterThan(0);
      expect(midway.done).toBeLessThan(head);
      expect(await store.activeVersion('fundraisers')).toBe(2);
      await expectFiguresAsGenerated(store, history);
      expect(jobs.get('catalog')).toBeNull();
    });

    it('stops a rebuild on close, leaving readers on the old version and no keys of the new one', async () => {
      const history = createHistory(eventStore, 6);
      await history.seed();
      await history.activity(20_000);
      const store = backend.connect();
      const recorded = createRecordingLog();
      const live = createProjectionRunner({ eventStore, store, projector: fundraisersProjector, log: recorded.log });
      live.start();
      await live.waitUntilCaughtUp(WAIT_MS);
      await live.stop();

      // Its first batch goes through and the next one waits until close() has begun.
      const commits = spyOnCommits(store);
      let commitsBegun = 0;
      const release = commits.hold(() => ++commitsBegun > 1);
      const jobs = createRebuildJobs({ eventStore, store: commits.store, log: recorded.log, clock });
      jobs.start(fundraisersProjector);
      // Half-way: the new version already holds keys.
      await until(() => commits.held() > 0, 'the rebuild projected a batch');
      const closing = jobs.close();
      release();
      await closing;

      expect(jobs.get('fundraisers')).toMatchObject({ state: 'failed', error: 'The process is shutting down' });
      expect(await store.activeVersion('fundraisers')).toBe(1);
      expect(await store.projection('fundraisers', 2).checkpoint()).toBeNull();
      if (backend.versionKeys) expect(await backend.versionKeys('fundraisers', 2)).toEqual([]);
      await expectFiguresAsGenerated(store, history);
    });
  });
}

describeRebuildJobs(memoryBackend);
describeWithRedis('rebuild jobs against a real Redis', (redis) => describeRebuildJobs(redisBackend(redis)));
