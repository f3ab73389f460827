import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  type EventStore,
  type ReadModelStore,
  fundraiserKeys,
  fundraisersProjector,
  createFundraiserQueries,
  catalogProjector,
  createCatalogQueries,
  createUserQueries,
  createWaitlistQueries,
} from '@qrshirt/core';
import { createSqliteEventStore } from '@qrshirt/sqlite';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { allProjectors } from '../src/projectors';
import { rebuildProjection } from '../src/rebuild';
import { type ProjectionRunner, createProjectionRunner } from '../src/runner';
import { createRedisReadModelStore } from '@qrshirt/redis';
import { toolCommand, WAIT_MS } from '@qrshirt/test-support';
import { spyOnCommits } from './support/commit-spy';
import { openTempEventStore } from './support/event-store';
import { expectFiguresAsGenerated } from './support/expect-figures';
import { type History, createHistory, fundraiserIds, HISTORY_NOW } from './support/history';
import { type BackendKind, type ReadModelBackend, memoryBackend, redisBackend } from './support/read-model-backends';
import { createRecordingLog } from './support/recording-log';
import { until } from './support/until';
import { describeWithRedis } from '@qrshirt/test-support/vitest';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Reads what the shop and the owners' dashboards read, over and over, and notes every answer
 * that is emptier than one before it: a reader must never catch a rebuild half-way.
 */
function startReader(store: ReadModelStore, history: History) {
  const catalog = createCatalogQueries(store);
  const fundraisers = createFundraiserQueries(store, () => HISTORY_NOW);
  const problems: string[] = [];
  const versionsSeen = new Set<number>();
  const last = new Map<string, { scans: number; donations: number }>();
  let reads = 0;
  let reading = true;

  const done = (async () => {
    while (reading) {
      versionsSeen.add(await store.activeVersion(fundraisersProjector.name));
      const shirts = await catalog.listShirts();
      if (shirts.length !== history.shirts().length) problems.push(`the shop listed ${shirts.length} shirts`);
      for (const id of fundraiserIds) {
        const { scans, donations } = await fundraisers.getStats(id);
        const before = last.get(id) ?? { scans: 0, donations: 0 };
        if (scans < before.scans) problems.push(`${id} showed ${scans} scans after ${before.scans}`);
        if (donations < before.donations)
          problems.push(`${id} showed ${donations} donations after ${before.donations}`);
        last.set(id, { scans, donations });
      }
      const owner = await fundraisers.getUserStats('u-1');
      if (owner.shirtsOwned !== 2) problems.push(`u-1 owned ${owner.shirtsOwned} shirts`);
      reads += 1;
      await sleep(2);
    }
  })();

  return {
    problems,
    versionsSeen,
    reads: () => reads,
    async stop() {
      reading = false;
      await done;
    },
  };
}

/** `store`, whose every commit first waits for `ready`. */
function commitsWaitFor(store: ReadModelStore, ready: () => Promise<void>): ReadModelStore {
  return {
    ...store,
    projection(name, version) {
      const projection = store.projection(name, version);
      return {
        ...projection,
        async commit(from, to, ops) {
          await ready();
          return projection.commit(from, to, ops);
        },
      };
    },
  };
}

function describeRebuild(kind: BackendKind): void {
  describe(`blue/green rebuild on the ${kind.name} read-model store`, () => {
    let eventStore: EventStore;
    let disposeEventStore: () => Promise<void>;
    let backend: ReadModelBackend;
    let runners: ProjectionRunner[];

    beforeEach(async () => {
      ({ eventStore, dispose: disposeEventStore } = await openTempEventStore());
      backend = kind.open();
      runners = [];
    });

    afterEach(async () => {
      await Promise.all(runners.map((runner) => runner.stop()));
      await disposeEventStore();
      await backend.close();
    });

    it('rebuilds under live traffic: readers never see an empty or shrinking model, and nothing is lost', async () => {
      const history = createHistory(eventStore);
      const recorded = createRecordingLog();
      await history.seed();
      await history.activity(3000);
      // Live runners a little slower than the rebuild, so the switch finds them at another checkpoint.
      const live = spyOnCommits(backend.connect(), 10);
      const projectors = [catalogProjector, fundraisersProjector];
      runners = projectors.map((projector) =>
        createProjectionRunner({ eventStore, store: live.store, projector, log: recorded.log }),
      );
      for (const runner of runners) runner.start();
      await Promise.all(runners.map((runner) => runner.waitUntilCaughtUp(WAIT_MS)));

      let appending = true;
      const appends = (async () => {
        while (appending) {
          await history.activity(20);
          await sleep(2);
        }
      })();
      const reader = startReader(backend.connect(), history);

      const scansBefore = history.totalScans();
      const readsBefore = reader.reads();
      // The rebuild runs as the CLI does: a client of its own, next to the live runners. Its first
      // batch waits for reads and appends, so they happen while it runs however fast it runs.
      const rebuilder = commitsWaitFor(backend.connect(), () =>
        until(
          () => reader.reads() > readsBefore + 2 && history.totalScans() > scansBefore,
          'reads and appends while the rebuild runs',
        ),
      );
      const switches = [];
      // The live runners' commits wait out the rebuild, so at least one of them was begun from a
      // checkpoint the switch then moved past, however fast the machine runs the rebuild.
      const releaseLiveCommits = live.hold();
      for (const projector of projectors) {
        switches.push(
          await rebuildProjection({ eventStore, store: rebuilder, projector, log: recorded.log, batchSize: 50 }),
        );
      }
      await until(() => live.held() > 0, 'a live commit waiting behind the rebuild');
      releaseLiveCommits();
      const readsDuring = reader.reads() - readsBefore;
      const scansDuring = history.totalScans() - scansBefore;
      // Only the live runners can project what is appended from here on; a read begun after the
      // switch (the second one from here) shows the new version.
      const readsAtSwitch = reader.reads();
      await until(
        () => history.totalScans() > scansBefore + scansDuring && reader.reads() >= readsAtSwitch + 2,
        'an append and a read after the switch',
      );
      appending = false;
      await appends;
      const scansAfter = history.totalScans() - scansBefore - scansDuring;
      await reader.stop();
      await Promise.all(runners.map((runner) => runner.waitUntilCaughtUp(WAIT_MS)));

      expect(reader.problems).toEqual([]);
      expect(readsDuring, 'reads while the rebuild ran').toBeGreaterThan(2);
      expect([...reader.versionsSeen].sort()).toEqual([1, 2]);
      expect(scansDuring, 'scans appended while the rebuild ran').toBeGreaterThan(0);
      expect(scansAfter, 'scans appended after the switch').toBeGreaterThan(0);
      expect(live.rejected(), 'live commits turned away once the checkpoint moved').toBeGreaterThan(0);

      expect(switches).toEqual([
        { from: 1, to: 2 },
        { from: 1, to: 2 },
      ]);
      for (const projector of projectors) expect(await live.store.activeVersion(projector.name)).toBe(2);
      await expectFiguresAsGenerated(live.store, history);
      expect(await createCatalogQueries(live.store).listShirts()).toEqual(history.shirts());

      // The old version is gone, not merely hidden.
      const old = live.store.projection(fundraisersProjector.name, 1);
      expect(await old.checkpoint()).toBeNull();
      expect(await old.hgetall(fundraiserKeys.totals('f-1'))).toEqual({});
      if (backend.versionKeys) {
        for (const { name } of projectors) expect(await backend.versionKeys(name, 1), `${name} v1 keys`).toEqual([]);
      }
      expect(recorded.errors).toEqual([]);
      expect(recorded.warnings).toEqual([]);
    });
  });
}

describeRebuild(memoryBackend);
describeWithRedis('blue/green rebuild against a real Redis', (redis) => describeRebuild(redisBackend(redis)));

const repoRoot = resolve(import.meta.dirname, '../../..');

function runCli(args: string[], env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  const { REDIS_URL: _redis, EVENTSTORE_URL: _eventstore, DATA_DIR: _data, ...inherited } = process.env;
  const [command, ...commandArgs] = toolCommand('rebuild-projections', args);
  const child = spawn(command, commandArgs, {
    cwd: repoRoot,
    env: { ...inherited, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += String(chunk)));
  return new Promise((done, fail) => {
    child.once('error', fail);
    child.once('close', (code) => done({ code, stderr }));
  });
}

// Its own server: the CLI writes the default key prefix, which must never be someone's Redis.
describeWithRedis(
  'rebuild-projections CLI',
  (redis) => {
    let dataDir: string;
    let history: History;
    let store: ReadModelStore;

    beforeAll(async () => {
      dataDir = await mkdtemp(join(tmpdir(), 'qr-rebuild-cli-'));
      const eventStore = createSqliteEventStore({ path: join(dataDir, 'events.sqlite'), synchronous: 'NORMAL' });
      history = createHistory(eventStore, 7);
      await history.seed();
      await history.activity(1000);
      await eventStore.close();
      store = createRedisReadModelStore({ url: redis.url });
    });

    afterAll(async () => {
      await store?.close();
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
    });

    it('rebuilds every projection from the SQLite file into Redis, which then answers the right figures', async () => {
      const { code, stderr } = await runCli([], { REDIS_URL: redis.url, DATA_DIR: dataDir });

      expect(code, stderr).toBe(0);
      for (const { name } of allProjectors) {
        expect(stderr).toContain(`${name}: version 1 -> 2`);
        expect(await store.activeVersion(name)).toBe(2);
      }
      await expectFiguresAsGenerated(store, history);
      expect(await createCatalogQueries(store).listShirts()).toEqual(history.shirts());
      expect(await createWaitlistQueries(store).getStats()).toEqual(history.waitlistStats());
      expect(await createUserQueries(store, { reveal: async (values) => [...values] }).getUser('u-2')).toMatchObject({
        displayName: 'Bo',
      });
    });

    it('refuses an unknown --projection with exit 2, naming it, before rebuilding anything', async () => {
      const catalogBefore = await store.activeVersion('catalog');
      const { code, stderr } = await runCli(['--projection', 'catalog', '--projection', 'nope'], {
        REDIS_URL: redis.url,
        DATA_DIR: dataDir,
      });

      expect(code).toBe(2);
      expect(stderr).toContain(
        'Unknown projection: nope (known: catalog, fundraisers, users, waitlist, overview, funnel, admin-audit, waitlist-entries)',
      );
      expect(await store.activeVersion('catalog')).toBe(catalogBefore);
    });

    it('without REDIS_URL rebuilds the read models in DATA_DIR/read-models.sqlite', async () => {
      const { code, stderr } = await runCli(['--projection', 'catalog'], { DATA_DIR: dataDir });

      expect(code).toBe(0);
      expect(stderr).toContain('catalog: version 1 -> 2');
    });
  },
  { ownServer: true },
);
