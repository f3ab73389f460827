import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { createInMemoryEventStore, type EventStore, reportIdFor } from '@qrshirt/core';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config';
import { createEmbeddedProcess } from '../src/embedded';
import {
  type ApiClient,
  createApiClient,
  createFundraiser,
  processCommand,
  START_MS,
  TEST_ALTCHA_MAX_NUMBER,
  TEST_JWT_SECRET,
  TEST_LOOKUP_KEY_SECRET,
  TEST_PASSWORD_SCRYPT_N,
  WAIT_MS,
  waitFor,
} from '@qrshirt/test-support';
import { outboxMessages } from './support/outbox';
import { asUser, startTestServer, type TestServer, userToken } from './support/test-server';
import { sendWebhook, succeeded } from './support/webhooks';

/** Polls the owner's stats until the demo's test money is `testAmountRaised`, no money raised meanwhile. */
async function testMoneyRaised(
  api: ApiClient,
  fundraiser: { id: string; userId: string },
  testAmountRaised: number,
): Promise<void> {
  await waitFor(
    `test money of ${testAmountRaised} on ${fundraiser.id}`,
    async () => {
      const { body } = await api('GET', `/api/fundraisers/${fundraiser.id}/stats`, {
        token: userToken(fundraiser.userId),
      });
      expect(body.amountRaised).toBe(0);
      return body;
    },
    (stats) => stats.testAmountRaised === testAmountRaised,
    { intervalMs: 20 },
  );
}

/** The outbox's record of the webhook that confirms `donationId`, once it is sent. */
async function webhookSent(dataDir: string, donationId: string) {
  const [webhook] = await waitFor(
    `the webhook of ${donationId} recorded as sent`,
    () => outboxMessages(dataDir).filter((message) => message.subject.includes(donationId)),
    ([message]) => message?.status === 'sent',
  );
  return webhook;
}

describe('the demo processor', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.stop());

  it('confirms a demo donation by its signed webhook: test money from its first try, the page report awaiting nothing', async () => {
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
    const charging = Date.now();
    await testMoneyRaised(server.api, fundraiser, 25);
    console.log(`demo donation counted as test money ${Date.now() - charging} ms after it was charged`);
    // Delivered on its first try, as the charge answered: a retry would come seconds later.
    expect(await webhookSent(server.dataDir, charged.body.donationId)).toMatchObject({
      channel: 'webhook',
      attempts: 1,
    });

    // The page reports the widget's donation under the widget's name for it.
    const reported = await server.api('POST', `/api/fundraisers/${fundraiser.id}/donate`, {
      body: { amount: 25 },
      headers: { 'Idempotency-Key': reference },
    });
    expect(reported).toMatchObject({ status: 201, body: { id: charged.body.reportId } });
    await server.embedded.projectionsCaughtUp(WAIT_MS);
    const stats = await server.api('GET', `/api/fundraisers/${fundraiser.id}/stats`, {
      token: userToken(fundraiser.userId),
    });
    expect(stats.body).toMatchObject({
      donations: 0,
      amountRaised: 0,
      testDonations: 1,
      testAmountRaised: 25,
      amountReported: 0,
    });
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

  it('takes 20 donations an hour from one client, and refuses the 21st with 429 and Retry-After', async () => {
    const fundraiser = await createFundraiser(server.api, asUser(`demo-owner-${randomUUID()}`));
    const charge = () =>
      server.api('POST', '/api/demo-processor/donations', {
        body: { fundraiserId: fundraiser.id, amount: 1 },
        headers: { 'x-forwarded-for': '198.18.29.1' },
      });
    for (let i = 0; i < 20; i++) expect((await charge()).status).toBe(202);
    const refused = await charge();
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatch(/^Too many requests from your address \(at most 20 an hour\)/);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(3000);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    // Another client still may.
    const other = await server.api('POST', '/api/demo-processor/donations', {
      body: { fundraiserId: fundraiser.id, amount: 1 },
      headers: { 'x-forwarded-for': '198.18.29.2' },
    });
    expect(other.status).toBe(202);
  });

  it('charges without a reference too: its webhook then names no report', async () => {
    const fundraiser = await createFundraiser(server.api, asUser(`demo-owner-${randomUUID()}`));
    const charged = await server.api('POST', '/api/demo-processor/donations', {
      body: { fundraiserId: fundraiser.id, amount: 3 },
    });
    expect(charged).toMatchObject({ status: 202, body: { reportId: null } });
    await testMoneyRaised(server.api, fundraiser, 3);
  });
});

describe('when the demo processor is on', () => {
  const demoKeys = { STRIPE_PUBLISHABLE_KEY: 'pk_test_1', STRIPE_WEBHOOK_SECRET: 'whsec_1' };

  it('is on by default only in demo mode outside production', () => {
    expect(loadConfig({})).toMatchObject({ demoMode: true, demoProcessor: true });
    expect(loadConfig({ ...demoKeys, STRIPE_SECRET_KEY: 'sk_test_1' })).toMatchObject({
      demoMode: true,
      demoProcessor: true,
    });
    const live = {
      STRIPE_SECRET_KEY: 'sk_live_1',
      STRIPE_PUBLISHABLE_KEY: 'pk_live_1',
      STRIPE_WEBHOOK_SECRET: 'whsec_1',
    };
    expect(loadConfig(live)).toMatchObject({ demoMode: false, demoProcessor: false });
    const production = {
      NODE_ENV: 'production',
      AUTH_JWT_SECRET: TEST_JWT_SECRET,
      LOOKUP_KEY_SECRET: TEST_LOOKUP_KEY_SECRET,
      PUBLIC_BASE_URL: 'https://shop.example',
      SMTP_URL: 'smtp://127.0.0.1:2525',
    };
    expect(loadConfig(production)).toMatchObject({ demoMode: true, demoProcessor: false });
    expect(() => loadConfig({ ...production, DEMO_PROCESSOR: 'true' })).toThrow(ConfigError);
  });

  it('DEMO_PROCESSOR=true with NODE_ENV=production stops the start: exit code 2, one line', () => {
    const [command, ...args] = processCommand('gateway');
    const run = spawnSync(command, args, {
      env: {
        ...process.env,
        NODE_ENV: 'production',
        DEMO_PROCESSOR: 'true',
        AUTH_JWT_SECRET: 'x'.repeat(32),
        LOOKUP_KEY_SECRET: 'y'.repeat(32),
      },
      encoding: 'utf8',
      timeout: START_MS,
    });
    expect(run.status).toBe(2);
    expect(run.stderr.split('\n').filter((line) => line.includes('DEMO_PROCESSOR'))).toEqual([
      'DEMO_PROCESSOR: must not be true with NODE_ENV=production (it confirms any donation anyone asks)',
    ]);
    expect(run.stderr).not.toContain('    at ');
  });

  it('says so in the log at start', async () => {
    const lines: { level: number; msg?: string }[] = [];
    const log = pino(
      { level: 'warn' },
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
          done();
        },
      }),
    );
    const on = await startTestServer({ log });
    await on.stop();
    const off = await startTestServer({ log, env: { DEMO_PROCESSOR: 'false' } });
    await off.stop();
    const warnings = lines.filter((line) => line.msg?.startsWith('the demo processor is on'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.msg).toMatch(/they count as test money, never as money raised/);
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
      PASSWORD_SCRYPT_N: TEST_PASSWORD_SCRYPT_N,
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
    await testMoneyRaised(api, fundraiser, 12);
    expect(failuresLeft).toBe(0);
    expect(warnings).toContainEqual(expect.objectContaining({ msg: 'webhook not delivered', channel: 'webhook' }));
  });
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
    await testMoneyRaised(first.api, fundraiser, 4.5);
    // Taken at its first try: signed with the secret the receiver checks.
    expect(await webhookSent(dataDir, charged.body.donationId)).toMatchObject({ attempts: 1 });
  });
});
