import { randomUUID } from 'node:crypto';
import { adminProjections, eventMetadata, rebuildStatus } from '@qrshirt/contracts';
import { allProjectors } from '@qrshirt/projections';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AdminTestServer, startAdminServer } from './support/admin';
import { createFundraiser, scanner, WAIT_MS, waitFor } from '@qrshirt/test-support';
import { asUser, userToken } from './support/test-server';
import { donateConfirmed } from './support/webhooks';

let server: AdminTestServer;
let fundraiserId: string;
const PROJECTIONS = [
  'catalog',
  'fundraisers',
  'users',
  'waitlist',
  'overview',
  'funnel',
  'admin-audit',
  'waitlist-entries',
];

beforeAll(async () => {
  server = await startAdminServer();
  ({ id: fundraiserId } = await createFundraiser(server.api, asUser('owner-1')));
  // Enough scans that a rebuild takes several batches, as the ingestor would append them.
  const at = new Date().toISOString();
  const scans = Array.from({ length: 10_000 }, () => ({
    type: 'ScanRecorded',
    data: {
      scanId: randomUUID(),
      fundraiserId,
      at,
      visitorHash: randomUUID(),
      addressHash: 'a',
      bot: false,
      counted: true,
    },
    metadata: eventMetadata('ScanRecorded'),
  }));
  await server.embedded.eventStore.appendToStream('scans-p0', scans);
  const [{ body: shirts }, { body: charities }] = await Promise.all([
    server.api('GET', '/api/shirts'),
    server.api('GET', '/api/charities'),
  ]);
  const joined = await server.api('POST', '/api/waitlist', {
    body: {
      shirtId: shirts[0].id,
      selectedSize: shirts[0].sizes[0],
      selectedCharity: charities[0].id,
      name: 'Wanda',
      email: 'wanda@example.com',
    },
  });
  expect(joined.status).toBe(201);
  for (const amount of [5, 12.5]) await donateConfirmed(server.api, fundraiserId, amount);
  // An admin's look at the entries, for the audit trail.
  expect((await server.api('GET', '/api/admin/waitlist/entries', server.admin)).status).toBe(200);
  await server.embedded.projectionsCaughtUp(WAIT_MS);
});
afterAll(() => server.stop());

const status = async () => {
  const answer = await server.api('GET', '/api/admin/projections', server.admin);
  expect(answer.status).toBe(200);
  return adminProjections.parse(answer.body);
};
const projection = async (name: string) => (await status()).projections.find((item) => item.name === name)!;

/** What readers of every projection see. */
async function readModels() {
  const owner = { token: userToken('owner-1') };
  const [stats, userStats, overview, shirts, charities, waitlist, audit] = await Promise.all([
    server.api('GET', `/api/fundraisers/${fundraiserId}/stats`, owner),
    server.api('GET', '/api/user/owner-1/stats', owner),
    server.api('GET', '/api/admin/overview', server.admin),
    server.api('GET', '/api/shirts'),
    server.api('GET', '/api/charities'),
    server.api('GET', '/api/waitlist'),
    server.api('GET', '/api/admin/audit', server.admin),
  ]);
  return {
    stats: stats.body,
    userStats: userStats.body,
    overview: overview.body,
    shirts: shirts.body,
    charities: charities.body,
    waitlist: waitlist.body,
    audit: audit.body,
  };
}

async function rebuildFinished(name: string) {
  const finished = await waitFor(
    `the rebuild of ${name} to finish`,
    async () => (await server.api('GET', `/api/admin/projections/${name}/rebuild`, server.admin)).body,
    (body) => body.state !== 'running',
    { intervalMs: 10 },
  );
  return rebuildStatus.parse(finished);
}

describe('GET /api/admin/projections', () => {
  it('lists every projection caught up: running, at its checkpoint, no lag', async () => {
    const { headPosition, positionUnit, projections } = await status();
    expect(headPosition).toBe(await server.embedded.eventStore.headPosition());
    expect(positionUnit).toBe('events');
    expect(projections.map((item) => item.name)).toEqual(PROJECTIONS);
    // The modules' projectors, which this process runs, are the ones the projector process runs.
    expect(allProjectors.map((projector) => projector.name)).toEqual(PROJECTIONS);
    for (const item of projections) {
      expect(item, item.name).toMatchObject({
        state: 'running',
        activeVersion: 1,
        lagEvents: 0,
        lagSeconds: 0,
        lastError: null,
        rebuild: null,
      });
      expect(item.checkpoint, item.name).toBeGreaterThan(0);
    }
    // Caught up, each recorded the head it searched to, even past events of other types (a
    // processor's webhook also records the message, which the fundraisers projection does not follow).
    expect((await projection('fundraisers')).checkpoint).toBe(headPosition);
  });

  it('shows lag in events and seconds while a projection is behind, none once it caught up', async () => {
    const runner = server.embedded.runners.find((candidate) => candidate.status().name === 'fundraisers')!;
    await runner.stop();
    const before = await projection('fundraisers');
    const scannedFrom = Date.now();
    for (let n = 0; n < 3; n++) {
      await server.api('POST', `/api/fundraisers/${fundraiserId}/scan`, { headers: scanner(n) });
    }

    // The lag grows with the real clock: a second of it, however long the machine takes to get there.
    const behind = await waitFor(
      'the fundraisers projection to lag a second behind',
      () => projection('fundraisers'),
      (item) => item.lagSeconds >= 1,
    );
    // In seconds, counted from the oldest pending scan: never more than has passed since it was made.
    expect(behind.lagSeconds).toBeLessThanOrEqual((Date.now() - scannedFrom) / 1000);
    const head = await server.embedded.eventStore.headPosition();
    expect(behind).toMatchObject({
      state: 'catching-up',
      checkpoint: before.checkpoint,
      lagEvents: head - before.checkpoint!,
    });
    expect(behind.lagEvents).toBeGreaterThanOrEqual(3);
    // Other projections do not handle scans: nothing is pending for them.
    expect(await projection('catalog')).toMatchObject({ state: 'running', lagEvents: 0 });

    runner.start();
    await server.embedded.projectionsCaughtUp(WAIT_MS);
    expect(await projection('fundraisers')).toMatchObject({
      state: 'running',
      checkpoint: head,
      lagEvents: 0,
      lagSeconds: 0,
    });
  });
});

describe('POST /api/admin/projections/{name}/rebuild', () => {
  it('rebuilds every projection blue/green to the same read models, with progress', async () => {
    await server.embedded.projectionsCaughtUp(WAIT_MS);
    const before = await readModels();
    expect(before.stats).toMatchObject({ scans: 10_003, donations: 2, amountRaised: 17.5 });

    for (const name of PROJECTIONS) {
      const started = await server.api('POST', `/api/admin/projections/${name}/rebuild`, server.admin);
      expect(started.status, name).toBe(202);
      expect(rebuildStatus.parse(started.body)).toMatchObject({ projection: name, state: 'running', finishedAt: null });
      const done = await rebuildFinished(name);
      expect(done, name).toMatchObject({ state: 'done', fromVersion: 1, toVersion: 2, error: null });
      expect(done.done, name).toBe(done.total);
      expect(done.eventsProjected, name).toBeGreaterThan(0);
    }
    // The fundraiser and its short code, its scans, and per donation its report, its confirmation
    // and the report's settling.
    expect((await projection('fundraisers')).rebuild).toMatchObject({
      state: 'done',
      eventsProjected: 2 + 10_003 + 2 * 3,
    });
    await server.embedded.projectionsCaughtUp(WAIT_MS);
    for (const item of (await status()).projections)
      expect(item, item.name).toMatchObject({ activeVersion: 2, state: 'running' });
    expect(await readModels()).toEqual(before);
  });

  it('refuses a second rebuild of a projection while one runs', async () => {
    const first = await server.api('POST', '/api/admin/projections/fundraisers/rebuild', server.admin);
    const second = await server.api('POST', '/api/admin/projections/fundraisers/rebuild', server.admin);
    expect(first.status).toBe(202);
    expect(second).toMatchObject({ status: 409, body: { error: 'A rebuild of fundraisers is already running' } });
    expect((await projection('fundraisers')).state).toBe('rebuilding');
    expect(await rebuildFinished('fundraisers')).toMatchObject({ state: 'done', fromVersion: 2, toVersion: 3 });
  });

  it('answers 404 for an unknown projection', async () => {
    const answer = await server.api('POST', '/api/admin/projections/nope/rebuild', server.admin);
    expect(answer).toMatchObject({ status: 404, body: { error: 'Projection not found' } });
    expect((await server.api('GET', '/api/admin/projections/nope/rebuild', server.admin)).status).toBe(404);
  });
});
