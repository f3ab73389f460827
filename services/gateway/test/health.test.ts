import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  as,
  createFundraiser,
  findRedisServer,
  infraRequired,
  type LocalRedis,
  signUp,
  startRedis,
  WAIT_MS,
  waitFor,
} from '@qrshirt/test-support';
import { startTestServer, type TestServer } from './support/test-server';

/** The value of one sample of a Prometheus text exposition, or undefined when absent. */
function sample(metrics: string, name: string, labels: Record<string, string>): number | undefined {
  for (const line of metrics.split('\n')) {
    if (!line.startsWith(`${name}{`)) continue;
    const labelText = line.slice(name.length + 1, line.indexOf('}'));
    const present = Object.fromEntries(
      [...labelText.matchAll(/(\w+)="([^"]*)"/g)].map((match) => [match[1], match[2]]),
    );
    if (Object.entries(labels).every(([key, value]) => present[key] === value))
      return Number(line.slice(line.indexOf('}') + 2));
  }
  return undefined;
}

const redisMissing = findRedisServer() === undefined;
if (redisMissing && !infraRequired('redis')) console.warn('[redis] gateway health skipped: redis-server not found');

describe.skipIf(redisMissing && !infraRequired('redis'))('gateway health and metrics (Redis read models)', () => {
  let redis: LocalRedis;
  let server: TestServer;

  beforeAll(async () => {
    // A server of its own: the test stops it.
    redis = await startRedis();
    server = await startTestServer({ env: { REDIS_URL: redis.url } });
  });
  afterAll(async () => {
    await server?.stop();
    await redis?.stop();
  });

  it('answers /healthz, and /readyz naming each dependency it asked', async () => {
    expect((await server.api('GET', '/healthz')).body).toEqual({ status: 'ok' });
    const ready = await server.ops('GET', '/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({
      status: 'ready',
      checks: {
        eventStore: 'up',
        readModels: 'up',
        outbox: 'up',
        credentials: 'up',
        diskSpace: 'up',
        projections: 'up',
        serverPages: 'up',
      },
    });
  });

  it('measures requests by route pattern and status, appends, and the lag of every projection', async () => {
    const owner = await signUp(server.api);
    const fundraiser = await createFundraiser(server.api, as(owner));
    for (let i = 0; i < 2; i++) await server.api('POST', `/api/fundraisers/${fundraiser.id}/scan`);
    // Served by Express rather than ahead of it (see fundraisers/scan.ts): measured under the same route.
    await server.api('POST', `/api/fundraisers/${fundraiser.id}/scan/`);
    await server.api('GET', `/api/fundraisers/${fundraiser.id}`);
    await server.api('GET', '/api/fundraisers/no-such-fundraiser');
    await server.embedded.projectionsCaughtUp(WAIT_MS);

    const answer = await server.ops('GET', '/metrics');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^text\/plain/);
    const metrics = answer.body as string;
    const requests = (route: string, status: string) =>
      sample(metrics, 'http_request_duration_seconds_count', { route, status });
    expect(requests('/api/fundraisers/:id/scan', '202')).toBe(3);
    expect(requests('/api/fundraisers/:id', '200')).toBe(1);
    expect(requests('/api/fundraisers/:id', '404')).toBe(1);
    // The pattern, never the path: one series per route however many fundraisers there are.
    expect(metrics).not.toContain(fundraiser.id);

    expect(sample(metrics, 'event_store_append_duration_seconds_count', { outcome: 'ok' })).toBeGreaterThan(0);
    expect(sample(metrics, 'event_store_append_batch_size_count', {})).toBeGreaterThan(0);
    for (const projection of ['catalog', 'fundraisers', 'users', 'waitlist']) {
      expect(sample(metrics, 'projection_lag_events', { projection }), projection).toBe(0);
      expect(sample(metrics, 'projection_lag_seconds', { projection }), projection).toBe(0);
    }
    expect(sample(metrics, 'projection_checkpoint', { projection: 'fundraisers' })).toBeGreaterThan(0);
  });

  it('counts what a projection has not caught up with as lag, in events and seconds', async () => {
    const owner = await signUp(server.api);
    const fundraiser = await createFundraiser(server.api, as(owner));
    await server.embedded.projectionsCaughtUp(WAIT_MS);
    const fundraisers = server.embedded.runners.find((runner) => runner.status().name === 'fundraisers')!;
    await fundraisers.stop();
    try {
      for (let i = 0; i < 4; i++) await server.api('POST', `/api/fundraisers/${fundraiser.id}/scan`);
      // The lag in seconds grows with the real clock: a second of it, however long that takes here.
      const metrics = await waitFor(
        'a second of lag for the fundraisers projection',
        async () => (await server.ops('GET', '/metrics')).body as string,
        (text) => (sample(text, 'projection_lag_seconds', { projection: 'fundraisers' }) ?? 0) >= 1,
      );
      expect(sample(metrics, 'projection_lag_events', { projection: 'fundraisers' })).toBe(4);
      expect(sample(metrics, 'projection_lag_events', { projection: 'catalog' })).toBe(0);
    } finally {
      fundraisers.start();
    }
    await server.embedded.projectionsCaughtUp(WAIT_MS);
    const metrics = (await server.ops('GET', '/metrics')).body as string;
    expect(sample(metrics, 'projection_lag_events', { projection: 'fundraisers' })).toBe(0);
  });

  it('answers /readyz with 503 naming the read model store once Redis is down, while /healthz stays up', async () => {
    await redis.stop();
    const answer = await server.ops('GET', '/readyz');
    expect(answer.status).toBe(503);
    expect(answer.body.error).toBe('Not ready: readModels down');
    expect(answer.body.checks.eventStore).toBe('up');
    expect(answer.body.checks.readModels).toMatch(/^down: /);
    expect((await server.api('GET', '/healthz')).status).toBe(200);
  });
});
