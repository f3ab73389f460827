import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createApiClient,
  createFundraiser,
  eventually,
  type GatewayProcess,
  scanner,
  startGatewayProcess,
  waitFor,
} from '@qrshirt/test-support';
import { asUser, userToken } from './support/test-server';
import { donateConfirmed } from './support/webhooks';

let dataDir: string;
let running: GatewayProcess | undefined;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'qrshirt-restart-'));
});
afterAll(async () => {
  await running?.terminate();
  await rm(dataDir, { recursive: true, force: true });
});

/** Read models are eventually consistent: poll until the stats show what was sent. */
const statsOnceSettled = (api: ReturnType<typeof createApiClient>, uid: string, expectedScans: number) =>
  waitFor(
    `${uid}'s stats to show ${expectedScans} scans`,
    async () => (await api('GET', `/api/user/${uid}/stats`, { token: userToken(uid) })).body,
    (body) => body.totalScans === expectedScans,
  );

describe('the embedded process across a restart', () => {
  it('answers the same stats, catalogue and waitlist after a restart, without re-seeding', async () => {
    running = await startGatewayProcess({ DATA_DIR: dataDir });
    let api = createApiClient(running.url);
    const first = await createFundraiser(api, asUser('restart-owner'), { name: 'Before restart' });
    const second = await createFundraiser(api, asUser('restart-owner'), { name: 'Also before' });
    const scan = (id: string, n: number) => api('POST', `/api/fundraisers/${id}/scan`, { headers: scanner(n) });
    for (let i = 0; i < 25; i++) await scan(first.id, i);
    for (let i = 0; i < 7; i++) await scan(second.id, i);
    await donateConfirmed(api, first.id, 15);
    await donateConfirmed(api, second.id, '"4.75"');
    await api('POST', `/api/fundraisers/${second.id}/donate`, { body: { amount: 3 } });
    const before = await statsOnceSettled(api, 'restart-owner', 32);
    const shirtsBefore = (await api('GET', '/api/shirts')).body;
    const fundraiserBefore = (
      await api('GET', `/api/fundraisers/${first.id}/stats`, { token: userToken('restart-owner') })
    ).body;
    expect(before).toMatchObject({ totalImpact: 19.75, totalReported: 3, totalScans: 32, shirtsOwned: 2 });

    expect(await running.terminate()).toBe(0);
    running = await startGatewayProcess({ DATA_DIR: dataDir });
    api = createApiClient(running.url);

    const after = (await api('GET', '/api/user/restart-owner/stats', { token: userToken('restart-owner') })).body;
    expect(after).toEqual(before);
    expect(
      (await api('GET', `/api/fundraisers/${first.id}/stats`, { token: userToken('restart-owner') })).body,
    ).toEqual(fundraiserBefore);
    expect((await api('GET', '/api/shirts')).body).toEqual(shirtsBefore);

    // Who was counted is remembered too: the restarted process rebuilt it from the scans' stream.
    expect((await scan(first.id, 0)).status).toBe(202);
    expect((await scan(first.id, 25)).status).toBe(202);
    const settled = await eventually(
      async () => (await api('GET', `/api/fundraisers/${first.id}/stats`, { token: userToken('restart-owner') })).body,
      (body) => body.scanRequests === 27,
    );
    expect(settled).toMatchObject({ scans: 26, scanRequests: 27 });
  });
});
