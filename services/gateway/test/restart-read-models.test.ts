import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventStore, SubscribeOptions } from '@qrshirt/core';
import { allProjectors } from '@qrshirt/projections';
import { createSqliteEventStore, createSqliteReadModelStore } from '@qrshirt/sqlite';
import {
  type ApiClient,
  as,
  createApiClient,
  createFundraiser,
  latestMail,
  type RequestOptions,
  scanner,
  signUp,
  TEST_ALTCHA_MAX_NUMBER,
  TEST_PASSWORD_SCRYPT_N,
  TEST_JWT_SECRET,
  TEST_WEBHOOK_SECRET,
  tokenIn,
  WAIT_MS,
} from '@qrshirt/test-support';
import { type Config, loadConfig } from '../src/config';
import { createEmbeddedProcess, type EmbeddedProcess } from '../src/embedded';
import { asUser, userToken } from './support/test-server';
import { donateConfirmed } from './support/webhooks';

const ADMIN_EMAIL = 'restart-ops@example.org';

let dataDir: string;
let config: Config;
let running: { embedded: EmbeddedProcess; api: ApiClient } | undefined;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'qrshirt-read-models-'));
  config = loadConfig({
    DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    OPS_PORT: '0',
    LOG_LEVEL: 'silent',
    AUTH_JWT_SECRET: TEST_JWT_SECRET,
    DONATION_WEBHOOK_SECRET: TEST_WEBHOOK_SECRET,
    ALTCHA_MAX_NUMBER: TEST_ALTCHA_MAX_NUMBER,
    PASSWORD_SCRYPT_N: TEST_PASSWORD_SCRYPT_N,
    ADMIN_EMAILS: ADMIN_EMAIL,
  });
});
afterAll(async () => {
  await running?.embedded.close();
  await rm(dataDir, { recursive: true, force: true });
});

/** What the projectors were handed: where each subscription started, and every event delivered. */
interface Reads {
  subscribedAfter: (number | undefined)[];
  delivered: number[];
}

/** The SQLite event store on DATA_DIR, as `npm start` opens it, recording what the runners read. */
function recordingEventStore(reads: Reads): EventStore {
  const store = createSqliteEventStore({ path: config.databaseFile });
  return {
    ...store,
    subscribe(options: SubscribeOptions) {
      reads.subscribedAfter.push(options.after);
      return store.subscribe({
        ...options,
        onEvents(events) {
          reads.delivered.push(...events.map((event) => event.globalPosition));
          return options.onEvents(events);
        },
      });
    },
  };
}

async function start(reads: Reads) {
  const embedded = await createEmbeddedProcess(config, { eventStore: recordingEventStore(reads) });
  const { url } = await embedded.listen();
  running = { embedded, api: createApiClient(url) };
  return running;
}

async function stop() {
  await running?.embedded.close();
  running = undefined;
}

/** Every read model a person sees for these fundraisers, as the API answers it. */
async function readModels(api: ApiClient, admin: RequestOptions, ids: readonly string[]) {
  const owner = { token: userToken('restart-owner') };
  return {
    shirts: (await api('GET', '/api/shirts')).body,
    charities: (await api('GET', '/api/charities')).body,
    ownerStats: (await api('GET', '/api/user/restart-owner/stats', owner)).body,
    fundraisers: await Promise.all(
      ids.map(async (id) => (await api('GET', `/api/fundraisers/${id}/stats`, owner)).body),
    ),
    overview: (await api('GET', '/api/admin/overview?top=5', admin)).body,
  };
}

async function storedCheckpoints(): Promise<Map<string, number | null>> {
  const store = createSqliteReadModelStore({ path: config.readModelsFile });
  try {
    const checkpoints = new Map<string, number | null>();
    for (const { name } of allProjectors) checkpoints.set(name, await store.projection(name).checkpoint());
    return checkpoints;
  } finally {
    await store.close();
  }
}

describe('the embedded read models across a restart', () => {
  it('resume from their stored checkpoints: the same answers, and no event projected twice', async () => {
    const firstRun: Reads = { subscribedAfter: [], delivered: [] };
    const { embedded, api } = await start(firstRun);
    const adminSession = await signUp(api, { email: ADMIN_EMAIL, displayName: 'Rhea Restart' });
    const token = tokenIn(await latestMail(dataDir, ADMIN_EMAIL), 'verify-email');
    expect((await api('POST', '/api/auth/verify-email', { ...as(adminSession), body: { token } })).status).toBe(200);
    const admin = as(adminSession);
    const first = await createFundraiser(api, asUser('restart-owner'), { name: 'Before restart' });
    const second = await createFundraiser(api, asUser('restart-owner'), { name: 'Also before' });
    for (let i = 0; i < 12; i++) await api('POST', `/api/fundraisers/${first.id}/scan`, { headers: scanner(i) });
    for (let i = 0; i < 5; i++) await api('POST', `/api/fundraisers/${second.id}/scan`, { headers: scanner(i) });
    await donateConfirmed(api, first.id, 15);
    await donateConfirmed(api, second.id, '"4.75"');
    await embedded.projectionsCaughtUp(WAIT_MS);
    const before = await readModels(api, admin, [first.id, second.id]);
    expect(before.ownerStats).toMatchObject({ totalScans: 17, totalImpact: 19.75, shirtsOwned: 2 });
    expect(before.overview).toMatchObject({ totals: expect.anything() });
    // The first start on an empty DATA_DIR projected the log from its start.
    expect(firstRun.subscribedAfter).toContain(undefined);
    const head = await embedded.eventStore.headPosition();
    await stop();

    // Read back from read-models.sqlite: every projection committed up to the head it had seen.
    const checkpoints = await storedCheckpoints();
    expect([...checkpoints.values()]).toEqual(allProjectors.map(() => head));

    const secondRun: Reads = { subscribedAfter: [], delivered: [] };
    const restarted = await start(secondRun);
    // Each runner subscribed after its stored checkpoint, none from position 0, and nothing that
    // was projected before the restart was handed to a projector again.
    expect(secondRun.subscribedAfter).toEqual([...checkpoints.values()]);
    expect(secondRun.delivered).toEqual([]);
    expect(await readModels(restarted.api, admin, [first.id, second.id])).toEqual(before);

    // And they carry on: a new scan is projected, and only events after the checkpoint are handed over.
    expect((await restarted.api('POST', `/api/fundraisers/${first.id}/scan`, { headers: scanner(99) })).status).toBe(
      202,
    );
    await restarted.embedded.projectionsCaughtUp(WAIT_MS);
    const stats = await restarted.api('GET', `/api/fundraisers/${first.id}/stats`, {
      token: userToken('restart-owner'),
    });
    expect(stats.body).toMatchObject({ scans: (before.fundraisers[0] as { scans: number }).scans + 1 });
    expect(secondRun.delivered.length).toBeGreaterThan(0);
    expect(Math.min(...secondRun.delivered)).toBeGreaterThan(head);
  });
});
