import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { EventStore } from '@qrshirt/core';
import { eventStoreFile } from '@qrshirt/runtime';
import { createSqliteEventStore } from '@qrshirt/sqlite';
import {
  as,
  createApiClient,
  createFundraiser,
  eventually,
  PHONE,
  type GatewayProcess,
  scanner,
  signUp,
  startGatewayProcess,
} from '@qrshirt/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** Small, so that a few requests go past it: the product's default is 6,000 a minute. */
const CAP = 10;
const MINUTE = 60_000;

let dataDir = '';
let gateway: GatewayProcess;
let log: EventStore;
beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'qrshirt-log-cap-'));
  gateway = await startGatewayProcess({ DATA_DIR: dataDir, ANONYMOUS_EVENTS_PER_MINUTE: String(CAP) });
  log = createSqliteEventStore({ path: eventStoreFile(dataDir) });
});
afterAll(async () => {
  await log?.close();
  await gateway?.kill();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

/** The most events the cap lets through one by one between `since` and now (each minute of the clock). */
const mostSingly = (since: number) => CAP * (Math.floor(Date.now() / MINUTE) - Math.floor(since / MINUTE) + 1);

describe('the cap on what anonymous clients add to the log, across all clients (npm start)', () => {
  it('tallies the scans past it, and the owner still sees every scan and every person', async () => {
    const api = createApiClient(gateway.url);
    const owner = await signUp(api);
    const { id } = await createFundraiser(api, as(owner));
    const since = Date.now();
    // 40 people, then each of them again: 80 requests, 40 of which count.
    const scan = (n: number) =>
      api('POST', `/api/fundraisers/${id}/scan`, { headers: scanner(n % 40, { userAgent: `${PHONE} #${n % 40}` }) });
    for (const round of [0, 1]) {
      const answers = await Promise.all(Array.from({ length: 40 }, (_, n) => scan(round * 40 + n)));
      expect(answers.map((answer) => answer.status)).toEqual(Array.from({ length: 40 }, () => 202));
    }

    const stats = await eventually(
      async () => (await api('GET', `/api/fundraisers/${id}/stats`, as(owner))).body as { scanRequests: number },
      (body) => body.scanRequests === 80,
    );
    expect(stats).toMatchObject({ scans: 40, scanRequests: 80 });
    const stored = (await log.readAll({ eventTypes: ['ScanRecorded', 'ScansTallied'] })).filter(
      (event) => (event.data as { fundraiserId: string }).fundraiserId === id,
    );
    const singly = stored.filter((event) => event.type === 'ScanRecorded');
    const tallies = stored.filter((event) => event.type === 'ScansTallied');
    expect(singly.length).toBeLessThanOrEqual(mostSingly(since));
    expect(tallies.length).toBeGreaterThan(0);
    expect(singly.length + tallies.reduce((sum, event) => sum + (event.data as { requests: number }).requests, 0)).toBe(
      80,
    );
  });

  it('samples the analytics past it: one page view in a hundred stored, standing for a hundred', async () => {
    const api = createApiClient(gateway.url);
    const before = (await log.readAll({ eventTypes: ['PageViewed'] })).length;
    const since = Date.now();
    const views = Array.from({ length: 100 }, (_, n) => ({ type: 'page_view', path: `/shirt/sampled-${n}` }));
    for (const client of [1, 2, 3, 4]) {
      const answer = await api('POST', '/api/analytics', { headers: scanner(1000 + client), body: { events: views } });
      expect(answer).toMatchObject({ status: 202, body: { accepted: 100 } });
    }
    const stored = (await log.readAll({ eventTypes: ['PageViewed'] })).slice(before);
    const sampled = stored.filter((event) => (event.data as { weight?: number }).weight === 100);
    expect(stored.length - sampled.length).toBeLessThanOrEqual(mostSingly(since));
    // 400 views, at most two minutes' caps (20) of them stored singly: three hundreds or more past it.
    expect(sampled.length).toBeGreaterThanOrEqual(3);
    expect(stored.length).toBeLessThan(400);
  });
});
