import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { processCommand, START_MS } from '@qrshirt/test-support';
import { ConfigError, loadConfig } from '../src/config';

describe('configuration', () => {
  it('has defaults for everything, so a bare `npm start` works', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ PORT: 8080, DATA_DIR: './data', SEED_CATALOG: true });
    expect(config.REDIS_URL).toBeUndefined();
    expect(config.databaseFile).toBe(path.resolve('data/events.sqlite'));
  });

  it('serves the operations endpoints on a port of their own, on loopback, unless told otherwise', () => {
    expect(loadConfig({})).toMatchObject({ PORT: 8080, OPS_PORT: 9464, OPS_HOST: '127.0.0.1' });
    expect(loadConfig({ OPS_PORT: '0', OPS_HOST: '0.0.0.0' })).toMatchObject({ OPS_PORT: 0, OPS_HOST: '0.0.0.0' });
    expect(() => loadConfig({ PORT: '9464' })).toThrow(
      'OPS_PORT: must differ from PORT (the operations endpoints have a port of their own)',
    );
    expect(() => loadConfig({ OPS_PORT: 'metrics' })).toThrow('OPS_PORT: expected a port number');
    // Both picked by the OS: they cannot be the same.
    expect(loadConfig({ PORT: '0', OPS_PORT: '0' })).toMatchObject({ PORT: 0, OPS_PORT: 0 });
  });

  it('names every wrong variable on a line of its own', () => {
    try {
      loadConfig({ PORT: 'eighty', REDIS_URL: 'not a url', SEED_CATALOG: 'maybe' });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const problems = (error as ConfigError).problems;
      expect(problems).toHaveLength(3);
      expect(problems).toContain('PORT: expected a port number');
      expect(problems).toContain('REDIS_URL: expected redis://host:port');
      expect(problems).toContain('SEED_CATALOG: expected true or false');
    }
  });

  it('reads TRUST_PROXY as Express takes it, and names a value Express would refuse', () => {
    expect(loadConfig({}).TRUST_PROXY).toBe('loopback');
    expect(loadConfig({ TRUST_PROXY: 'false' }).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '2' }).TRUST_PROXY).toBe(2);
    expect(loadConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/8' }).TRUST_PROXY).toBe('loopback, 10.0.0.0/8');
    expect(() => loadConfig({ TRUST_PROXY: 'the load balancer' })).toThrow(/^TRUST_PROXY: expected true, false/);
  });

  it('reads ADMIN_EMAILS as a comma-separated list in any case, and names a wrong entry', () => {
    expect(loadConfig({}).ADMIN_EMAILS).toEqual([]);
    expect(loadConfig({ ADMIN_EMAILS: ' Ops@Example.org, ,root@example.net ' }).ADMIN_EMAILS).toEqual([
      'ops@example.org',
      'root@example.net',
    ]);
    expect(() => loadConfig({ ADMIN_EMAILS: 'ops@example.org,ops' })).toThrow(
      'ADMIN_EMAILS.1: expected comma-separated email addresses',
    );
  });

  it('takes a donation webhook secret only in the whsec_ form, and switches the demo processor off in production', () => {
    const secret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
    expect(loadConfig({ DONATION_WEBHOOK_SECRET: secret }).DONATION_WEBHOOK_SECRET).toBe(secret);
    expect(loadConfig({ DONATION_WEBHOOK_SECRET: ' ' }).DONATION_WEBHOOK_SECRET).toBeUndefined();
    for (const wrong of ['hunter2', Buffer.alloc(32).toString('base64'), 'whsec_not base64', 'whsec_c2hvcnQ=']) {
      expect(() => loadConfig({ DONATION_WEBHOOK_SECRET: wrong })).toThrow(
        'DONATION_WEBHOOK_SECRET: expected whsec_ followed by base64 of 24 to 64 random bytes',
      );
    }
    expect(loadConfig({}).demoProcessor).toBe(true);
    const production = {
      NODE_ENV: 'production',
      AUTH_JWT_SECRET: randomBytes(32).toString('hex'),
      LOOKUP_KEY_SECRET: randomBytes(32).toString('hex'),
      PUBLIC_BASE_URL: 'https://shop.example',
      SMTP_URL: 'smtp://127.0.0.1:2525',
    };
    expect(loadConfig(production).demoProcessor).toBe(false);
    expect(() => loadConfig({ ...production, DEMO_PROCESSOR: 'true' })).toThrow(
      'DEMO_PROCESSOR: must not be true with NODE_ENV=production',
    );
    expect(loadConfig({ DEMO_PROCESSOR: 'false' }).demoProcessor).toBe(false);
    expect(() => loadConfig({ DEMO_PROCESSOR: 'yes' })).toThrow('DEMO_PROCESSOR: expected true or false');
  });

  it('stops the process with exit code 2 and no stack trace', () => {
    const [command, ...args] = processCommand('gateway');
    const run = spawnSync(command, args, {
      env: { ...process.env, PORT: '-1' },
      encoding: 'utf8',
      timeout: START_MS,
    });
    expect(run.status).toBe(2);
    expect(run.stderr.trim().split('\n').at(-1)).toMatch(/^PORT: /);
    expect(run.stderr).not.toContain('    at ');
  });
});
