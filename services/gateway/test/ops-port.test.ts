import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support/test-server';

describe('operations endpoints on OPS_PORT', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.stop());

  it('serves /metrics, /readyz and /healthz on the operations port, on loopback', async () => {
    expect(new URL(server.opsUrl).hostname).toBe('127.0.0.1');
    expect(new URL(server.opsUrl).port).not.toBe(new URL(server.url).port);
    expect(await (await fetch(`${server.opsUrl}/healthz`)).json()).toEqual({ status: 'ok' });
    const metrics = await fetch(`${server.opsUrl}/metrics`);
    expect(metrics.status).toBe(200);
    expect(await metrics.text()).toContain('http_request_duration_seconds');
    const ready = await fetch(`${server.opsUrl}/readyz`);
    expect({ status: ready.status, body: await ready.json() }).toMatchObject({
      status: 200,
      body: { status: 'ready' },
    });
  });

  it('answers them 404 on the public port, in every spelling, and still serves /healthz there', async () => {
    for (const path of ['/metrics', '/metrics/', '/METRICS', '/Metrics', '/readyz', '/readyz/', '/READYZ']) {
      const answer = await fetch(`${server.url}${path}`);
      expect(answer.status, path).toBe(404);
      expect(((await answer.json()) as { error: string }).error, path).toMatch(/^No such endpoint/);
    }
    // Whatever else a spelling reaches (the web client's page), it is not the metrics.
    for (const path of ['//metrics', '/metrics?x=1', '/%6detrics']) {
      expect(await (await fetch(`${server.url}${path}`)).text(), path).not.toContain('http_request_duration_seconds');
    }
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  });
});
