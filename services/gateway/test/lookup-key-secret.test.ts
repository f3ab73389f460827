import { readFileSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { createLookupKeys } from '@qrshirt/core';
import {
  createApiClient,
  type GatewayProcess,
  launchProcess,
  newClient,
  processCommand,
  signUp,
  START_MS,
  startGatewayProcess,
  TEST_JWT_SECRET,
  uniqueEmail,
} from '@qrshirt/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

describe('a start without LOOKUP_KEY_SECRET', () => {
  let dataDir: string;
  let first: GatewayProcess | undefined;
  let second: GatewayProcess | undefined;
  const secretFile = () => path.join(dataDir, 'lookup-key-secret');

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'qrshirt-lookup-secret-'));
    // Two processes on one data folder at once, as start:distributed runs its gateways; the
    // sign-in secret generated too, to see the two are not one.
    const generated = { DATA_DIR: dataDir, LOOKUP_KEY_SECRET: '', AUTH_JWT_SECRET: '' };
    [first, second] = await Promise.all([startGatewayProcess(generated), startGatewayProcess(generated)]);
  });
  afterAll(async () => {
    await Promise.all([first?.terminate(), second?.terminate()]);
    await rm(dataDir, { recursive: true, force: true });
  });

  it('generates a 256-bit secret, readable by its owner only, that every process on the folder names addresses by', async () => {
    const secret = readFileSync(secretFile(), 'utf8').trim();
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    expect(statSync(secretFile()).mode & 0o777).toBe(0o600);
    // The auth secret is another one: rotating it must not rename anything.
    expect(readFileSync(path.join(dataDir, 'auth-secret'), 'utf8').trim()).not.toBe(secret);

    const email = uniqueEmail('keyed');
    await signUp(createApiClient(first!.url), { email });
    const taken = await createApiClient(second!.url)('POST', '/api/auth/signup', {
      body: { email, password: 'correct horse', displayName: 'Twice' },
      headers: newClient(),
    });
    expect(taken.status).toBe(409);
    const db = new Database(path.join(dataDir, 'events.sqlite'), { readonly: true });
    try {
      const names = db.prepare("SELECT stream_name FROM events WHERE stream_name LIKE 'email-%'").pluck().all();
      expect(names).toEqual([`email-${createLookupKeys(secret).email(email)}`]);
    } finally {
      db.close();
    }
  });

  it('is refused on restart with another secret: the log was keyed with this one', async () => {
    await Promise.all([first?.terminate(), second?.terminate()]);
    [first, second] = [undefined, undefined];
    const gateway = launchProcess({
      name: 'gateway',
      command: processCommand('gateway'),
      env: {
        DATA_DIR: dataDir,
        PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'silent',
        AUTH_JWT_SECRET: TEST_JWT_SECRET,
        LOOKUP_KEY_SECRET: 'a-secret-someone-set-later-than-the-first-start',
      },
    });
    // Were it to start instead, it would serve until killed.
    const timer = setTimeout(() => void gateway.kill(), START_MS);
    const status = await gateway.exited;
    clearTimeout(timer);
    expect(status).toBe(2);
    expect(gateway.output.join('\n')).toMatch(
      /LOOKUP_KEY_SECRET is not the secret the event log's names were made with/,
    );
  });
});
