import { randomUUID } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { createInMemoryEventStore, type EventStore, reportIdFor } from '@qrshirt/core';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config';
import { createEmbeddedProcess } from '../src/embedded';
import {
  type ApiClient,
  createApiClient,
  createFundraiser,
  TEST_ALTCHA_MAX_NUMBER,
  TEST_JWT_SECRET,
} from '@qrshirt/test-support';
import { asUser, startTestServer, type TestServer, userToken } from './support/test-server';
import { sendWebhook, succeeded } from './support/webhooks';

/** Polls the owner's stats until `expected` holds, or fails after `withinMs`; answers how long it took. */
async function raisedWithin(
  api: ApiClient,
  fundraiser: { id: string; userId: string },
  expected: { amountRaised: number; amountReported?: number },
  withinMs: number,
): Promise<number> {
  const started = Date.now();
  let last: unknown;
  while (Date.now() - started < withinMs) {
    const answer = await api('GET', `/api/fundraisers/${fundraiser.id}/stats`, { token: userToken(fundraiser.userId) });
    last = answer.body;
    if (
      answer.body.amountRaised === expected.amountRaised &&
      (expected.amountReported === undefined || answer.body.amountReported === expected.amountReported)
    )
      return Date.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`not ${JSON.stringify(expected)} within ${withinMs} ms: ${JSON.stringify(last)}`);
}

describe('the demo processor', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.stop());

  it('confirms a demo donation by its signed webhook: raised within a second, the page report awaiting nothing', async () => {
    const fundraiser = await createFundraiser(server.api, asUser(`demo-owner-${randomUUID()}`));
    const reference = randomUUID();
    const charged = await server.api('POST', '/api/demo-processor/donations', {
      body: { fundraiserId: fundraiser.id, amount: 25, reference },
    });
    expect(charged).toMatchObject({
      status: 202,
      body: {
        donationId: expect.stringMatching(/^demo_/),
        fundraiserId: fundraiser.id,
        amount: 25,
        currency: 'USD',
        reportId: reportIdFor(fundraiser.id, reference),
      },
    });
    expect(await raisedWithin(server.api, fundraiser, { amountRaised: 25 }, 1000)).toBeLessThan(1000);

    // The page reports the widget's donation under the widget's name for it.
    const reported = await server.api('POST', `/api/fundraisers/${fundraiser.id}/donate`, {
      body: { amount: 25 },
      headers: { 'Idempotency-Key': reference },
    });
    expect(reported).toMatchObject({ status: 201, body: { id: charged.body.reportId } });
    await server.embedded.projectionsCaughtUp();
    const stats = await server.api('GET', `/api/fundraisers/${fundraiser.id}/stats`, {
      token: userToken(fundraiser.userId),
    });
    expect(stats.body).toMatchObject({ donations: 1, amountRaised: 25, amountReported: 0 });
  });

  it('refuses what a real processor would: unknown fundraisers, amounts not above 0', async () => {
    const fundraiser = await createFundraiser(server.api, asUser(`demo-owner-${randomUUID()}`));
    const charge = (body: unknown) => server.api('POST', '/api/demo-processor/donations', { body });
    expect(await charge({ fundraiserId: 'nope', amount: 5 })).toMatchObject({
      status: 404,
      body: { error: 'Fundraiser not found' },
    });
    for (const amount of [0, -1, '5', 2_000_000]) {
      const answer = await charge({ fundraiserId: fundraiser.id, amount });
      expect(answer.status, JSON.stringify(amount)).toBe(400);
      expect(answer.body.error).toMatch(/amount must be/);
    }
  });

  it('charges without a reference too: its webhook then names no report', async () => {
    const fundraiser = await createFundraiser(server.api, asUser(`demo-owner-${randomUUID()}`));
    const charged = await server.api('POST', '/api/demo-processor/donations', {
      body: { fundraiserId: fundraiser.id, amount: 3 },
    });
    expect(charged).toMatchObject({ status: 202, body: { reportId: null } });
    await raisedWithin(server.api, fundraiser, { amountRaised: 3 }, 2000);
  });
});

describe('the demo processor switched off', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { DEMO_PROCESSOR: 'false' } });
  });
  afterAll(() => server.stop());

  it('answers 503, while the webhook route keeps working', async () => {
    const fundraiser = await createFundraiser(server.api, asUser('owner-off'));
    expect(
      await server.api('POST', '/api/demo-processor/donations', { body: { fundraiserId: fundraiser.id, amount: 5 } }),
    ).toMatchObject({ status: 503, body: { error: expect.stringMatching(/demo processor is off/) } });
    expect(await sendWebhook(server.api, succeeded({ fundraiserId: fundraiser.id, amount: 5 }))).toMatchObject({
      status: 200,
      body: { outcome: 'confirmed' },
    });
  });
});

describe('a demo donation whose first delivery fails', () => {
  const cleanup: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });

  it('is not lost: the outbox delivers it on a later try', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'qrshirt-demo-'));
    cleanup.push(() => rm(dataDir, { recursive: true, force: true }));
    // The event store refuses the first confirmation it is asked to store, as a full disk would.
    const inner = createInMemoryEventStore();
    let failuresLeft = 1;
    const eventStore: EventStore = {
      ...inner,
      appendToStream(streamName, events, options) {
        if (streamName.startsWith('processor-donation-') && failuresLeft > 0) {
          failuresLeft -= 1;
          return Promise.reject(new Error('disk full (test)'));
        }
        return inner.appendToStream(streamName, events, options);
      },
    };
    const warnings: { msg?: string; channel?: string }[] = [];
    const log = pino(
      { level: 'warn' },
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          for (const line of chunk.toString().split('\n').filter(Boolean)) warnings.push(JSON.parse(line));
          done();
        },
      }),
    );
    const config = loadConfig({
      DATA_DIR: dataDir,
      PORT: '0',
      HOST: '127.0.0.1',
      OPS_PORT: '0',
      AUTH_JWT_SECRET: TEST_JWT_SECRET,
      ALTCHA_MAX_NUMBER: TEST_ALTCHA_MAX_NUMBER,
    });
    const embedded = await createEmbeddedProcess(config, { eventStore, log });
    cleanup.push(() => embedded.close());
    const api = createApiClient((await embedded.listen()).url);
    const fundraiser = await createFundraiser(api, asUser('patient-owner'));

    const charged = await api('POST', '/api/demo-processor/donations', {
      body: { fundraiserId: fundraiser.id, amount: 12 },
    });
    expect(charged.status).toBe(202);
    // The first try failed (and said so); the retry, about 5 s later, gets it there.
    await raisedWithin(api, fundraiser, { amountRaised: 12 }, 15_000);
    expect(failuresLeft).toBe(0);
    expect(warnings).toContainEqual(expect.objectContaining({ msg: 'webhook not delivered', channel: 'webhook' }));
  }, 30_000);
});

describe('a start without DONATION_WEBHOOK_SECRET', () => {
  let dataDir: string;
  let first: TestServer;
  let second: TestServer;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'qrshirt-webhook-secret-'));
    const env = { DONATION_WEBHOOK_SECRET: '' };
    first = await startTestServer({ dataDir, env });
    second = await startTestServer({ dataDir, env: { ...env, SEED_CATALOG: 'false' } });
  });
  afterAll(async () => {
    await second?.stop();
    await first?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('generates a whsec_ secret into DATA_DIR (mode 0600) that every process on it shares', async () => {
    const file = path.join(dataDir, 'donation-webhook-secret');
    const secret = readFileSync(file, 'utf8').trim();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(statSync(file).mode & 0o777).toBe(0o600);

    const fundraiser = await createFundraiser(first.api, asUser('secret-owner'));
    // Signed with it, both processes take the webhook; with the tests' usual secret, neither does.
    const viaSecond = await sendWebhook(second.api, succeeded({ fundraiserId: fundraiser.id, amount: 2 }), { secret });
    expect(viaSecond).toMatchObject({ status: 200, body: { outcome: 'confirmed' } });
    expect((await sendWebhook(first.api, succeeded({ fundraiserId: fundraiser.id, amount: 2 }))).status).toBe(401);
  });

  it('and the demo processor signs with it too', async () => {
    const fundraiser = await createFundraiser(first.api, asUser('secret-demo-owner'));
    const charged = await first.api('POST', '/api/demo-processor/donations', {
      body: { fundraiserId: fundraiser.id, amount: 4.5 },
    });
    expect(charged.status).toBe(202);
    await raisedWithin(first.api, fundraiser, { amountRaised: 4.5 }, 2000);
  });
});
