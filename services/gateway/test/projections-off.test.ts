import { describe, expect, it } from 'vitest';
import { describeWithRedis } from '@qrshirt/test-support/vitest';
import { ConfigError, loadConfig } from '../src/config';
import { startTestServer } from './support/test-server';

describe('PROJECTIONS', () => {
  it('defaults to in-process and refuses off without the Redis the projector process writes', () => {
    expect(loadConfig({}).PROJECTIONS).toBe('in-process');
    expect(() => loadConfig({ PROJECTIONS: 'off' })).toThrow(ConfigError);
    try {
      loadConfig({ PROJECTIONS: 'off', REDIS_URL: ' ' });
      expect.unreachable();
    } catch (error) {
      expect((error as ConfigError).problems).toEqual([
        'REDIS_URL: required when PROJECTIONS=off (the projector process writes the read models there)',
      ]);
    }
    expect(() => loadConfig({ PROJECTIONS: 'elsewhere' })).toThrow('PROJECTIONS: expected in-process or off');
  });
});

describeWithRedis(
  'a gateway with PROJECTIONS=off',
  (redis) => {
    it('runs no projector over the read models it serves, and says it is ready', async () => {
      const server = await startTestServer({
        env: { REDIS_URL: redis.url, PROJECTIONS: 'off', SEED_CATALOG: 'false' },
      });
      try {
        expect(server.embedded.runners).toEqual([]);
        // Nothing projects the catalogue this process would otherwise seed and project.
        expect((await server.api('GET', '/api/shirts')).body).toEqual([]);
        expect((await server.ops('GET', '/readyz')).status).toBe(200);
        const metrics = (await server.ops('GET', '/metrics')).body as string;
        expect(metrics).not.toMatch(/^projection_lag_events\{/m);
      } finally {
        await server.stop();
      }
    });
  },
  { ownServer: true },
);
