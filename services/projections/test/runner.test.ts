import { performance } from 'node:perf_hooks';
import { eventMetadata } from '@qrshirt/contracts';
import {
  type EventStore,
  type Projector,
  fundraisersProjector,
  createFundraiserQueries,
  createCatalogQueries,
  createUserQueries,
  createWaitlistQueries,
} from '@qrshirt/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { allProjectors } from '../src/projectors';
import { type ProjectionRunner, createProjectionRunner } from '../src/runner';
import { spyOnCommits } from './support/commit-spy';
import { openTempEventStore } from './support/event-store';
import { expectFiguresAsGenerated } from './support/expect-figures';
import { type History, createHistory, HISTORY_NOW } from './support/history';
import { type BackendKind, type ReadModelBackend, memoryBackend, redisBackend } from './support/read-model-backends';
import { createRecordingLog } from './support/recording-log';
import { WAIT_MS } from '@qrshirt/test-support';
import { describeWithRedis } from '@qrshirt/test-support/vitest';
import { until } from './support/until';

function describeRunner(kind: BackendKind): void {
  describe(`projection runner on the ${kind.name} read-model store`, () => {
    let eventStore: EventStore;
    let disposeEventStore: () => Promise<void>;
    let backend: ReadModelBackend;
    let history: History;
    let recorded: ReturnType<typeof createRecordingLog>;
    let runners: ProjectionRunner[];

    beforeEach(async () => {
      ({ eventStore, dispose: disposeEventStore } = await openTempEventStore());
      backend = kind.open();
      history = createHistory(eventStore);
      recorded = createRecordingLog();
      runners = [];
    });

    afterEach(async () => {
      await Promise.all(runners.map((runner) => runner.stop()));
      await disposeEventStore();
      await backend.close();
    });

    function startRunner(projector: Projector, store = backend.connect(), batchSize?: number): ProjectionRunner {
      const runner = createProjectionRunner({
        eventStore,
        store,
        projector,
        log: recorded.log,
        ...(batchSize !== undefined && { batchSize }),
      });
      runners.push(runner);
      runner.start();
      return runner;
    }

    it('projects a generated history: every query answers the figures that were generated', async () => {
      await history.seed();
      await history.activity(3000);
      const store = backend.connect();
      const started = allProjectors.map((projector) => startRunner(projector, store));
      await Promise.all(started.map((runner) => runner.waitUntilCaughtUp(WAIT_MS)));

      await expectFiguresAsGenerated(store, history);
      expect(history.totalScans(), 'a history worth comparing').toBeGreaterThan(2500);
      expect(await createCatalogQueries(store).listShirts()).toEqual(history.shirts());
      expect((await createCatalogQueries(store).listCharities()).map((charity) => charity.id)).toEqual(['c-1', 'c-2']);
      expect(await createWaitlistQueries(store).getStats()).toEqual(history.waitlistStats());
      expect(await createUserQueries(store, { reveal: async (values) => [...values] }).getUser('u-1')).toEqual({
        uid: 'u-1',
        displayName: 'Ada',
        email: 'ada@example.com',
        photoURL: null,
        dailySummary: false,
      });
      expect(await createFundraiserQueries(store, () => HISTORY_NOW).getFundraiser('f-2')).toMatchObject({
        userId: 'u-1',
        name: "Ada's hike",
      });
      expect(recorded.errors).toEqual([]);
      expect(recorded.warnings).toEqual([]);
    });

    it('a runner stopped mid-history and replaced by a new one counts every event exactly once', async () => {
      await history.seed();
      await history.activity(3000);
      const head = await eventStore.headPosition();
      const stops: number[] = [];
      // Each pass is a new process: its own runner and its own store client. Its commit that
      // reaches the fraction waits until stop() has begun, so it stops there however fast it runs.
      for (const fraction of [0.25, 0.5, 0.75]) {
        const commits = spyOnCommits(backend.connect());
        const release = commits.hold((to) => to >= head * fraction);
        const runner = startRunner(fundraisersProjector, commits.store, 100);
        await until(() => commits.held() > 0, `${fraction} of the history is projected`);
        const stopping = runner.stop();
        release();
        await stopping;
        stops.push(runner.status().checkpoint ?? 0);
      }
      expect(stops.every((checkpoint) => checkpoint < head)).toBe(true);

      const last = startRunner(fundraisersProjector, backend.connect(), 100);
      await last.waitUntilCaughtUp(WAIT_MS);
      await expectFiguresAsGenerated(backend.connect(), history);
      expect(recorded.warnings).toEqual([]);
    });

    it('a runner stopped right after starting stops at once, and the next one projects everything', async () => {
      await history.seed();
      await history.activity(500);
      const hasty = startRunner(fundraisersProjector);
      const stopping = performance.now();
      let timer: NodeJS.Timeout | undefined;
      const stopped = await Promise.race([
        hasty.stop().then(() => true),
        new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), WAIT_MS))),
      ]);
      clearTimeout(timer);
      expect(stopped, `stop() settled within ${WAIT_MS} ms`).toBe(true);
      console.log(`[runner] stopped right after starting, in ${Math.round(performance.now() - stopping)} ms`);
      expect(hasty.status().running).toBe(false);

      await startRunner(fundraisersProjector).waitUntilCaughtUp(WAIT_MS);
      await expectFiguresAsGenerated(backend.connect(), history);
    });

    it('two runners on one projection at once (two projector processes) count every event exactly once', async () => {
      await history.seed();
      await history.activity(3000);
      const fast = spyOnCommits(backend.connect());
      const slow = spyOnCommits(backend.connect(), 2);
      // The slower runner's first commit waits until the other has committed, so the two really
      // raced for the same checkpoint, however the machine schedules them.
      const releaseSlow = slow.hold();
      const runnerA = startRunner(fundraisersProjector, fast.store, 100);
      const runnerB = startRunner(fundraisersProjector, slow.store, 100);
      await until(
        () => slow.held() > 0 && runnerA.status().checkpoint !== null,
        'both runners began a commit from the start, and one of them made it',
      );
      releaseSlow();
      await Promise.all([runnerA.waitUntilCaughtUp(WAIT_MS), runnerB.waitUntilCaughtUp(WAIT_MS)]);
      // Both keep following: live appends are raced for too.
      await history.activity(500);
      await Promise.all([runnerA.waitUntilCaughtUp(WAIT_MS), runnerB.waitUntilCaughtUp(WAIT_MS)]);
      await expectFiguresAsGenerated(backend.connect(), history);
      expect(slow.rejected(), 'commits of the slower runner turned away by the checkpoint guard').toBeGreaterThan(0);

      // The runner that kept losing must still be able to carry on alone once the other is gone.
      await runnerA.stop();
      await history.activity(300);
      await runnerB.waitUntilCaughtUp(WAIT_MS);
      await expectFiguresAsGenerated(backend.connect(), history);
      // A lost race is routine, not something to alert an operator about.
      expect(recorded.warnings).toEqual([]);
      expect(runnerB.status().lastError).toBeNull();
    });

    it('follows live: events appended after it caught up show up in the queries', async () => {
      await history.seed();
      const runner = startRunner(fundraisersProjector);
      await runner.waitUntilCaughtUp(WAIT_MS);
      const store = backend.connect();
      expect((await createFundraiserQueries(store, () => HISTORY_NOW).getStats('f-1')).scans).toBe(0);

      await history.activity(400);
      await runner.waitUntilCaughtUp(WAIT_MS);
      await expectFiguresAsGenerated(store, history);
      expect(runner.status()).toMatchObject({
        running: true,
        checkpoint: await eventStore.headPosition(),
        lastError: null,
      });
      expect(runner.status().lastCommitAt).not.toBeNull();
    });

    it('logs and skips a stored event that breaks its schema, and projects the events after it', async () => {
      await history.seed();
      await history.activity(200);
      const { lastGlobalPosition: badPosition } = await eventStore.appendToStream('scans-p0', [
        {
          type: 'ScanRecorded',
          data: { scanId: 'bad', fundraiserId: 'f-1', at: 'yesterday' },
          metadata: eventMetadata('ScanRecorded'),
        },
      ]);
      await history.activity(200);

      const runner = startRunner(fundraisersProjector);
      await runner.waitUntilCaughtUp(WAIT_MS);

      await expectFiguresAsGenerated(backend.connect(), history);
      expect(recorded.errors).toHaveLength(1);
      expect(recorded.errors[0]).toMatchObject({
        message: 'event skipped',
        details: { projection: 'fundraisers', globalPosition: badPosition },
      });
      expect(runner.status()).toMatchObject({ checkpoint: await eventStore.headPosition(), lastError: null });
    });
  });
}

describeRunner(memoryBackend);
describeWithRedis('projection runner against a real Redis', (redis) => describeRunner(redisBackend(redis)));
