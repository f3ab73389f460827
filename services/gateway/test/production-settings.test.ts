import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { processCommand, START_MS } from '@qrshirt/test-support';
import { ConfigError, loadConfig } from '../src/config';

const random = (bytes: number) => randomBytes(bytes).toString('hex');

/** A production start that passes every check: what each case below spoils one setting of. */
const safeProduction = {
  NODE_ENV: 'production',
  AUTH_JWT_SECRET: random(32),
  LOOKUP_KEY_SECRET: random(32),
  PUBLIC_BASE_URL: 'https://shop.example',
  SMTP_URL: 'smtp://mailer:password@127.0.0.1:2525',
};
const stripeKeys = { STRIPE_SECRET_KEY: 'sk_live_production', STRIPE_PUBLISHABLE_KEY: 'pk_live_production' };
const stripeSecret = `whsec_${random(16)}`;

/** Each unsafe setting, and the one line that refuses it. */
const unsafe: { name: string; env: Record<string, string>; line: string }[] = [
  {
    name: 'TRUST_PROXY=true',
    env: { TRUST_PROXY: 'true' },
    line: 'TRUST_PROXY: must not be true in production (every client would choose the address its rate limits count); name the proxies',
  },
  {
    name: 'an AUTH_JWT_SECRET of one repeated letter',
    env: { AUTH_JWT_SECRET: 'a'.repeat(48) },
    line: 'AUTH_JWT_SECRET: expected 32+ random characters in production, at least 10 of them different',
  },
  {
    name: 'an AUTH_JWT_SECRET shorter than 32 characters',
    env: { AUTH_JWT_SECRET: random(15) },
    line: 'AUTH_JWT_SECRET: expected at least 32 characters',
  },
  {
    name: 'a LOOKUP_KEY_SECRET of 9 different characters',
    env: { LOOKUP_KEY_SECRET: '123456789'.repeat(4) },
    line: 'LOOKUP_KEY_SECRET: expected 32+ random characters in production, at least 10 of them different',
  },
  {
    name: 'a DONATION_WEBHOOK_SECRET of one repeated byte',
    env: { DONATION_WEBHOOK_SECRET: `whsec_${Buffer.alloc(32, 7).toString('base64')}` },
    line: 'DONATION_WEBHOOK_SECRET: expected a random key in production, not a repeated or typed one',
  },
  {
    name: 'a 1-character STRIPE_WEBHOOK_SECRET',
    env: { ...stripeKeys, STRIPE_WEBHOOK_SECRET: 'whsec_x' },
    line: 'STRIPE_WEBHOOK_SECRET: expected the signing secret Stripe shows for the endpoint (whsec_ and 32+ letters and digits)',
  },
  {
    name: 'a STRIPE_CONNECT_WEBHOOK_SECRET not in Stripe’s form',
    env: {
      ...stripeKeys,
      STRIPE_WEBHOOK_SECRET: stripeSecret,
      STRIPE_CONNECT_WEBHOOK_SECRET: `whsec_${'ab'.repeat(20)}`,
    },
    line: 'STRIPE_CONNECT_WEBHOOK_SECRET: expected the signing secret Stripe shows for the endpoint (whsec_ and 32+ letters and digits)',
  },
  {
    name: 'an http:// PUBLIC_BASE_URL',
    env: { PUBLIC_BASE_URL: 'http://shop.example' },
    line: "PUBLIC_BASE_URL: expected https://… in production (the mailed links carry people's tokens)",
  },
  {
    name: 'no SMTP_URL',
    env: { SMTP_URL: '' },
    line: 'SMTP_URL: required in production (without it mail is written to DATA_DIR/mail/ and reaches nobody)',
  },
  {
    name: 'a PASSWORD_SCRYPT_N below the default',
    env: { PASSWORD_SCRYPT_N: '16384' },
    line: 'PASSWORD_SCRYPT_N: expected at least 32768 in production (a lower one is for tests)',
  },
];

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe('production settings', () => {
  it('starts with safe ones, Stripe’s live secrets included', () => {
    expect(problemsOf(safeProduction)).toEqual([]);
    expect(
      problemsOf({
        ...safeProduction,
        ...stripeKeys,
        STRIPE_WEBHOOK_SECRET: stripeSecret,
        STRIPE_CONNECT_WEBHOOK_SECRET: `whsec_${random(32)}`,
        DONATION_WEBHOOK_SECRET: `whsec_${randomBytes(32).toString('base64')}`,
        TRUST_PROXY: 'loopback, 10.0.0.0/8',
      }),
    ).toEqual([]);
  });

  it.each(unsafe)('refuses $name with one line', ({ env, line }) => {
    expect(problemsOf({ ...safeProduction, ...env })).toEqual([line]);
  });

  it('takes the same settings outside production, where they are a convenience', () => {
    for (const { env, line } of unsafe) {
      if (line.endsWith('expected at least 32 characters')) continue;
      const development = { ...safeProduction, NODE_ENV: 'development', ...env };
      expect(problemsOf(development), line).toEqual([]);
    }
  });

  it('names every unsafe setting at once, each on a line of its own', () => {
    const all = Object.assign({}, safeProduction, ...unsafe.slice(0, 2).map(({ env }) => env), {
      PUBLIC_BASE_URL: 'http://shop.example',
      SMTP_URL: '',
    }) as Record<string, string>;
    expect(problemsOf(all).sort()).toEqual([unsafe[0]!.line, unsafe[1]!.line, unsafe[7]!.line, unsafe[8]!.line].sort());
  });

  // Refused before the data folder is touched; a start that was not would write here.
  const dataDir = mkdtempSync(path.join(tmpdir(), 'qrshirt-production-settings-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it.each(unsafe)('stops `npm start` with $name: exit code 2, its line, no stack trace', ({ env, line }) => {
    const [node, ...args] = processCommand('gateway');
    const run = spawnSync(node, args, {
      env: { PATH: process.env.PATH, ...safeProduction, DATA_DIR: dataDir, PORT: '0', OPS_PORT: '0', ...env },
      encoding: 'utf8',
      timeout: START_MS,
    });
    expect(run.status, run.stderr).toBe(2);
    expect(run.stderr.trim().split('\n')).toEqual([line]);
  });
});
