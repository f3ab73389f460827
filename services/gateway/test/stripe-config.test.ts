import { spawnSync } from 'node:child_process';
import { processCommand, START_MS } from '@qrshirt/test-support';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config';

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

const testKeys = {
  STRIPE_SECRET_KEY: 'sk_test_123',
  STRIPE_PUBLISHABLE_KEY: 'pk_test_123',
  STRIPE_WEBHOOK_SECRET: 'whsec_abc',
};

describe('Stripe configuration', () => {
  it('is off without its variables, and on with all three', () => {
    expect(loadConfig({}).stripe).toBeNull();
    expect(loadConfig(testKeys).stripe).toEqual({
      secretKey: 'sk_test_123',
      publishableKey: 'pk_test_123',
      webhookSecret: 'whsec_abc',
      connectWebhookSecret: undefined,
      apiUrl: undefined,
      live: false,
      platformFeePercent: 0,
    });
    const live = loadConfig({
      STRIPE_SECRET_KEY: 'sk_live_1',
      STRIPE_PUBLISHABLE_KEY: 'pk_live_1',
      STRIPE_WEBHOOK_SECRET: 'whsec_1',
      STRIPE_API_URL: 'http://127.0.0.1:12111',
    }).stripe;
    expect(live).toMatchObject({ live: true, apiUrl: new URL('http://127.0.0.1:12111') });
  });

  it('names each variable a partial set misses, and keys that are not what they say', () => {
    expect(problemsOf({ STRIPE_SECRET_KEY: 'sk_test_123' }).sort()).toEqual([
      'STRIPE_PUBLISHABLE_KEY: required when STRIPE_SECRET_KEY is set',
      'STRIPE_WEBHOOK_SECRET: required when STRIPE_SECRET_KEY is set',
    ]);
    expect(problemsOf({ ...testKeys, STRIPE_SECRET_KEY: 'pk_test_123', STRIPE_API_URL: 'nowhere' }).sort()).toEqual([
      'STRIPE_API_URL: expected http://127.0.0.1:12111 (stripe-mock) or https://api.stripe.com',
      'STRIPE_SECRET_KEY: expected a secret or restricted key (sk_live_…, sk_test_…, rk_…)',
    ]);
    expect(problemsOf({ ...testKeys, STRIPE_SECRET_KEY: 'sk_live_123' })).toEqual([
      'STRIPE_PUBLISHABLE_KEY: a test key with a live STRIPE_SECRET_KEY',
    ]);
    expect(
      problemsOf({ ...testKeys, STRIPE_PLATFORM_FEE_PERCENT: '25', STRIPE_CONNECT_WEBHOOK_SECRET: 'secret' }).sort(),
    ).toEqual([
      "STRIPE_CONNECT_WEBHOOK_SECRET: expected the Connect endpoint's signing secret (whsec_…)",
      'STRIPE_PLATFORM_FEE_PERCENT: expected a percentage from 0 to 20',
    ]);
  });

  it('stops the start of a partial set: exit code 2, one line per missing variable', () => {
    const [command, ...args] = processCommand('gateway');
    const run = spawnSync(command, args, {
      env: { ...process.env, STRIPE_SECRET_KEY: 'sk_test_123', STRIPE_PUBLISHABLE_KEY: '', STRIPE_WEBHOOK_SECRET: '' },
      encoding: 'utf8',
      // A start of the process, up to its check of the settings.
      timeout: START_MS,
    });
    expect(run.status).toBe(2);
    expect(run.stderr.split('\n').filter((line) => line.startsWith('STRIPE_'))).toEqual([
      'STRIPE_PUBLISHABLE_KEY: required when STRIPE_SECRET_KEY is set',
      'STRIPE_WEBHOOK_SECRET: required when STRIPE_SECRET_KEY is set',
    ]);
    expect(run.stderr).not.toContain('    at ');
  });
});
