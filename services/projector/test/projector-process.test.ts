import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createSqliteEventStore } from '@qrshirt/sqlite';
import { seedCatalog, systemClock, createCatalogQueries } from '@qrshirt/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  eventually,
  findRedisServer,
  infraRequired,
  type LocalRedis,
  startProjectorProcess,
  startRedis,
  type WorkerProcess,
} from '@qrshirt/test-support';
import { createRedisReadModelStore } from '@qrshirt/redis';

const redisMissing = findRedisServer() === undefined;
if (redisMissing && !infraRequired('redis')) console.warn('[redis] projector process skipped: redis-server not found');

const metric = (metrics: string, line: RegExp) => Number(line.exec(metrics)?.[1] ?? Number.NaN);

describe.skipIf(redisMissing && !infraRequired('redis'))('the projector process', () => {
  let redis: LocalRedis;
  let dataDir: string;
  let projector: WorkerProcess | undefined;

  beforeAll(async () => {
    redis = await startRedis();
    dataDir = await mkdtemp(path.join(tmpdir(), 'qrshirt-projector-'));
    // What a gateway would have written to the shared SQLite file before the projector started.
    const eventStore = createSqliteEventStore({ path: path.join(dataDir, 'events.sqlite') });
    await seedCatalog({ eventStore, clock: systemClock });
    await eventStore.close();
  });
  afterAll(async () => {
    await projector?.kill();
    await redis?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('projects the shared event store into Redis and reports itself ready, caught up and lag-free', async () => {
    projector = await startProjectorProcess({ REDIS_URL: redis.url, DATA_DIR: dataDir });
    expect(await (await fetch(`${projector.opsUrl}/healthz`)).json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${projector.opsUrl}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({
      status: 'ready',
      checks: { eventStore: 'up', readModels: 'up', projections: 'up' },
    });

    const readModels = createRedisReadModelStore({ url: redis.url });
    const catalog = createCatalogQueries(readModels);
    const shirts = await eventually(
      () => catalog.listShirts(),
      (listed) => listed.length >= 10,
    );
    await readModels.close();
    expect(shirts).toHaveLength(10);

    const catalogLag = /^projection_lag_events\{projection="catalog",service="projector"\} (\d+)$/m;
    const metrics = await eventually(
      async () => (await fetch(`${projector!.opsUrl}/metrics`)).text(),
      (text) => metric(text, catalogLag) === 0,
    );
    expect(metric(metrics, catalogLag)).toBe(0);
    expect(
      metric(metrics, /^projection_checkpoint\{projection="catalog",service="projector"\} (\d+)$/m),
    ).toBeGreaterThan(0);
  });

  it('answers /readyz with 503 naming the read model store when Redis is down, and still stops cleanly on SIGTERM', async () => {
    await redis.stop();
    const answer = await fetch(`${projector!.opsUrl}/readyz`);
    expect(answer.status).toBe(503);
    const body = (await answer.json()) as { error: string; checks: Record<string, string> };
    expect(body.error).toBe('Not ready: readModels down');
    expect(body.checks).toMatchObject({ eventStore: 'up', readModels: expect.stringMatching(/^down: /) });

    // Exit code 0: it stopped within its own shutdown deadline (SHUTDOWN_DEADLINE_MS), which
    // exits with 1 otherwise; how long it took is in the 'shut down' line.
    expect(await projector!.terminate()).toBe(0);
    const shutDown = projector!.logs.find((line) => line.msg === 'shut down');
    console.log(`[projector] shut down in ${String(shutDown?.ms)} ms after SIGTERM`);
    expect(projector!.logs.map((line) => line.msg)).toContain('shut down');
  });
});
