import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { describeWithRedis } from '@qrshirt/test-support/vitest';
import { createFundraiser, scanner, WAIT_MS } from '@qrshirt/test-support';
import { asUser, startTestServer, type TestServer, userToken } from './support/test-server';
import { donateConfirmed } from './support/webhooks';

// The embedded process writes Redis's default key prefix, so it gets a server of its own.
describeWithRedis(
  'the embedded process with REDIS_URL',
  (redis) => {
    let dataDir: string;
    let server: TestServer | undefined;
    afterAll(async () => {
      await server?.stop();
      await rm(dataDir, { recursive: true, force: true });
    });

    it('keeps read models in Redis, and a restart neither loses nor double-counts them', async () => {
      dataDir = await mkdtemp(path.join(tmpdir(), 'qrshirt-redis-'));
      const env = { REDIS_URL: redis.url };
      server = await startTestServer({ env, dataDir });
      // With Redis the process serves before its projections caught up: the seeded catalogue the
      // fundraiser is made from may not be projected yet.
      await server.embedded.projectionsCaughtUp(WAIT_MS);
      const owned = await createFundraiser(server.api, asUser('redis-owner'));
      for (let i = 0; i < 12; i++) {
        await server.api('POST', `/api/fundraisers/${owned.id}/scan`, { headers: scanner(i) });
      }
      await donateConfirmed(server.api, owned.id, 8);
      await server.api('POST', `/api/fundraisers/${owned.id}/donate`, { body: { amount: 2 } });
      await server.embedded.projectionsCaughtUp(WAIT_MS);
      const token = userToken('redis-owner');
      const before = (await server.api('GET', `/api/fundraisers/${owned.id}/stats`, { token })).body;
      expect(before).toMatchObject({ scans: 12, scanRequests: 12, donations: 1, amountRaised: 8, amountReported: 2 });
      expect((await server.api('GET', '/api/shirts')).body.length).toBeGreaterThanOrEqual(8);

      await server.stop();
      server = await startTestServer({ env, dataDir });
      // Redis kept the models and their checkpoints: they answer before any replay, unchanged.
      expect((await server.api('GET', `/api/fundraisers/${owned.id}/stats`, { token })).body).toEqual(before);
      await server.api('POST', `/api/fundraisers/${owned.id}/scan`, { headers: scanner(12) });
      await server.embedded.projectionsCaughtUp(WAIT_MS);
      expect((await server.api('GET', `/api/fundraisers/${owned.id}/stats`, { token })).body.scans).toBe(13);
    });
  },
  { ownServer: true },
);
