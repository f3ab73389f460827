import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config';
import { processCommand, START_MS, startGatewayProcess, startSmtpServer } from '@qrshirt/test-support';

const SECRET = 'a-production-secret-of-at-least-32-characters';
/** What production needs besides the secrets (production-settings.test.ts): https links, real mail. */
const production = {
  NODE_ENV: 'production',
  PUBLIC_BASE_URL: 'https://shop.example',
  SMTP_URL: 'smtp://127.0.0.1:2525',
};

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe('sign-in configuration', () => {
  it('has development defaults', () => {
    expect(loadConfig({})).toMatchObject({
      AUTH_JWT_ALGORITHM: 'HS256',
      ACCESS_TOKEN_TTL_SECONDS: 900,
      REFRESH_TOKEN_TTL_DAYS: 30,
      PUBLIC_BASE_URL: 'http://localhost:8080',
      CREDENTIALS_STORE: 'sqlite',
      GOOGLE_AUTHORIZATION_URL: 'https://accounts.google.com/o/oauth2/v2/auth',
      credentialsFile: path.resolve('data/credentials.sqlite'),
    });
    expect(loadConfig({}).GOOGLE_CLIENT_ID).toBeUndefined();
    // No default secret: a start without one generates its own (auth-secret.test.ts).
    expect(loadConfig({}).AUTH_JWT_SECRET).toBeUndefined();
    expect(loadConfig({}).generatedSecretFile).toBe(path.resolve('data/auth-secret'));
    expect(loadConfig({}).LOOKUP_KEY_SECRET).toBeUndefined();
    expect(loadConfig({}).lookupKeySecretFile).toBe(path.resolve('data/lookup-key-secret'));
  });

  it('refuses production without secrets of its own', () => {
    const line = 'AUTH_JWT_SECRET: required in production (32+ random characters, the same in every gateway)';
    const lookup =
      'LOOKUP_KEY_SECRET: required in production (32+ random characters, the same in every gateway and never changed)';
    const keyed = { LOOKUP_KEY_SECRET: `${SECRET}-for-lookup-keys` };
    expect(problemsOf(production)).toEqual([line, lookup]);
    expect(problemsOf({ ...production, AUTH_JWT_SECRET: '  ', ...keyed })).toEqual([line]);
    expect(problemsOf({ ...production, AUTH_JWT_SECRET: SECRET, LOOKUP_KEY_SECRET: ' ' })).toEqual([lookup]);
    expect(problemsOf({ ...production, AUTH_JWT_SECRET: SECRET, ...keyed })).toEqual([]);
    expect(problemsOf({ LOOKUP_KEY_SECRET: 'short' })).toEqual(['LOOKUP_KEY_SECRET: expected at least 32 characters']);
  });

  it('names each wrong sign-in variable on a line of its own', () => {
    expect(
      problemsOf({
        AUTH_JWT_SECRET: 'short',
        AUTH_JWT_ALGORITHM: 'none',
        ACCESS_TOKEN_TTL_SECONDS: 'soon',
        REFRESH_TOKEN_TTL_DAYS: '0',
        PUBLIC_BASE_URL: 'ftp://example.com',
        CREDENTIALS_STORE: 'redis',
        GOOGLE_CLIENT_ID: 'id-only',
      }).sort(),
    ).toEqual(
      [
        'AUTH_JWT_SECRET: expected at least 32 characters',
        'AUTH_JWT_ALGORITHM: expected HS256, HS384 or HS512',
        'ACCESS_TOKEN_TTL_SECONDS: expected a number of seconds',
        'REFRESH_TOKEN_TTL_DAYS: expected a number of days',
        'PUBLIC_BASE_URL: expected http(s)://host[:port]',
        'REDIS_URL: required when CREDENTIALS_STORE=redis',
        'GOOGLE_CLIENT_SECRET: required when GOOGLE_CLIENT_ID is set',
        'GOOGLE_CALLBACK_URL: required when GOOGLE_CLIENT_ID is set',
      ].sort(),
    );
  });

  it('stops `npm start` in production without a secret: exit code 2, one clear line', () => {
    const [command, ...args] = processCommand('gateway');
    const run = spawnSync(command, args, {
      env: { ...process.env, NODE_ENV: 'production', AUTH_JWT_SECRET: '', LOOKUP_KEY_SECRET: '' },
      encoding: 'utf8',
      timeout: START_MS,
    });
    expect(run.status).toBe(2);
    expect(run.stderr.split('\n').filter((line) => /^(AUTH_JWT|LOOKUP_KEY)_SECRET/.test(line))).toEqual([
      'AUTH_JWT_SECRET: required in production (32+ random characters, the same in every gateway)',
      'LOOKUP_KEY_SECRET: required in production (32+ random characters, the same in every gateway and never changed)',
    ]);
    expect(run.stderr).not.toContain('    at ');
  });

  it('runs in production with its secrets, without any outbox endpoint and without phone sign-in', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'qrshirt-production-'));
    const smtp = await startSmtpServer();
    const gateway = await startGatewayProcess({
      ...production,
      SMTP_URL: smtp.url,
      AUTH_JWT_SECRET: SECRET,
      DATA_DIR: dataDir,
    });
    try {
      const outbox = await fetch(`${gateway.url}/api/dev/outbox`);
      expect(outbox.status).toBe(404);
      expect(await outbox.json()).toEqual({ error: 'No such endpoint: GET /api/dev/outbox' });
      const anonymous = await fetch(`${gateway.url}/api/auth/anonymous`, { method: 'POST' });
      expect(anonymous.status).toBe(200);
      for (const route of ['/api/auth/phone/start', '/api/auth/phone/confirm']) {
        const phone = await fetch(`${gateway.url}${route}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ phoneNumber: '+15555550123' }),
        });
        expect({ status: phone.status, body: await phone.json() }).toEqual({
          status: 503,
          body: { error: 'Phone sign-in is not configured' },
        });
      }
    } finally {
      await gateway.terminate();
      await smtp.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
