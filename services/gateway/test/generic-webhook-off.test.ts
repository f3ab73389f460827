import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ApiClient,
  createApiClient,
  createFundraiser,
  type GatewayProcess,
  type LocalSmtp,
  startGatewayProcess,
  startSmtpServer,
  waitFor,
} from '@qrshirt/test-support';
import { describeWithStripeMock } from '@qrshirt/test-support/vitest';
import { asUser, userToken } from './support/test-server';
import { sendWebhook, succeeded } from './support/webhooks';

/**
 * The generic Standard Webhooks endpoint against `npm start`'s process: on only where it is the
 * processor, so neither a Stripe-configured start nor a production start without the processor's
 * secret takes money from a message signed with a secret of its own.
 */

const owner = 'generic-webhook-owner';
const folders: string[] = [];

async function start(
  env: Record<string, string>,
): Promise<{ gateway: GatewayProcess; api: ApiClient; dataDir: string }> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'qrshirt-generic-webhook-'));
  folders.push(dataDir);
  const gateway = await startGatewayProcess({ DATA_DIR: dataDir, ...env });
  return { gateway, api: createApiClient(gateway.url), dataDir };
}

/** The fundraiser's live and test money, once they reach `done`. */
function moneyOf(
  api: ApiClient,
  fundraiser: { id: string },
  done: (stats: { amountRaised: number; testAmountRaised: number }) => boolean,
) {
  return waitFor(
    `the money of ${fundraiser.id}`,
    async () => (await api('GET', `/api/fundraisers/${fundraiser.id}/stats`, { token: userToken(owner) })).body,
    done,
  );
}

afterAll(async () => {
  await Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true })));
});

describeWithStripeMock('a Stripe-configured start', (stripeMock) => {
  let started: Awaited<ReturnType<typeof start>>;
  beforeAll(async () => {
    started = await start({
      STRIPE_SECRET_KEY: 'sk_test_generic_off',
      STRIPE_PUBLISHABLE_KEY: 'pk_test_generic_off',
      STRIPE_WEBHOOK_SECRET: 'whsec_generic_off',
      STRIPE_API_URL: stripeMock.url,
    });
  });
  afterAll(() => started?.gateway.terminate());

  it('answers 404 on the generic webhook, even signed with DONATION_WEBHOOK_SECRET', async () => {
    const { api } = started;
    const fundraiser = await createFundraiser(api, asUser(owner));
    const answer = await sendWebhook(api, succeeded({ fundraiserId: fundraiser.id, amount: 1000 }));
    expect({ status: answer.status, body: answer.body }).toEqual({
      status: 404,
      body: { error: 'Stripe takes the donations here (POST /api/webhooks/stripe); this webhook is off' },
    });
  });

  it('keeps no secret for it in DATA_DIR, while the demo processor still confirms its test money', async () => {
    const { api, dataDir } = started;
    const fundraiser = await createFundraiser(api, asUser(owner));
    const charged = await api('POST', '/api/demo-processor/donations', {
      body: { fundraiserId: fundraiser.id, amount: 3 },
    });
    expect(charged.status).toBe(202);
    const money = await moneyOf(api, fundraiser, (stats) => stats.testAmountRaised === 3);
    expect(money.amountRaised).toBe(0);
    expect(existsSync(path.join(dataDir, 'donation-webhook-secret'))).toBe(false);
  });
});

describe('a production start', () => {
  let smtp: LocalSmtp;
  const production = () => ({
    NODE_ENV: 'production',
    PUBLIC_BASE_URL: 'https://shop.example',
    SMTP_URL: smtp.url,
  });
  beforeAll(async () => {
    smtp = await startSmtpServer();
  });
  afterAll(() => smtp?.stop());

  it('answers 404 on the generic webhook without DONATION_WEBHOOK_SECRET, and generates none', async () => {
    const { gateway, api, dataDir } = await start({ ...production(), DONATION_WEBHOOK_SECRET: '' });
    try {
      const fundraiser = await createFundraiser(api, asUser(owner));
      const answer = await sendWebhook(api, succeeded({ fundraiserId: fundraiser.id, amount: 1000 }));
      expect({ status: answer.status, body: answer.body }).toEqual({
        status: 404,
        body: { error: 'No donation processor is configured for this webhook (DONATION_WEBHOOK_SECRET is unset)' },
      });
      expect(existsSync(path.join(dataDir, 'donation-webhook-secret'))).toBe(false);
    } finally {
      await gateway.terminate();
    }
  });

  it('counts what the processor signs once DONATION_WEBHOOK_SECRET is set', async () => {
    const secret = `whsec_${randomBytes(32).toString('base64')}`;
    const { gateway, api } = await start({ ...production(), DONATION_WEBHOOK_SECRET: secret });
    try {
      const fundraiser = await createFundraiser(api, asUser(owner));
      const live = await sendWebhook(api, succeeded({ fundraiserId: fundraiser.id, amount: 1000 }), { secret });
      expect(live).toMatchObject({ status: 200, body: { outcome: 'confirmed' } });
      await moneyOf(api, fundraiser, (stats) => stats.amountRaised === 1000);
    } finally {
      await gateway.terminate();
    }
  });
});
