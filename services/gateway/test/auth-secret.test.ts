import { execFileSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { systemClock } from '@qrshirt/core';
import jwt from 'jsonwebtoken';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJwtTokens } from '../src/auth/jwt-tokens';
import { createApiClient, type GatewayProcess, signUp, startGatewayProcess } from '@qrshirt/test-support';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** The secret every start without AUTH_JWT_SECRET signed with until this test was written. */
const OLD_DEVELOPMENT_SECRET = 'qrshirt-development-only-secret-do-not-deploy';

/**
 * Every string someone could lift from the repository to sign a token with: each quoted literal,
 * each line and each word of 8 characters or more, of every tracked text file.
 */
function stringsInRepository(): string[] {
  const files = execFileSync('git', ['ls-files'], { cwd: repoRoot, encoding: 'utf8' }).split('\n').filter(Boolean);
  const found = new Set<string>();
  for (const file of files) {
    let bytes: Buffer;
    try {
      bytes = readFileSync(path.join(repoRoot, file));
    } catch {
      continue; // Deleted in the work tree, not yet in the index.
    }
    if (bytes.includes(0)) continue;
    const text = bytes.toString('utf8');
    for (const match of text.matchAll(/(["'`])((?:\\.|(?!\1)[^\\\n])+)\1/g)) found.add(match[2]!);
    for (const line of text.split('\n')) {
      const trimmed = line.trim();
      if (trimmed) found.add(trimmed);
      for (const word of trimmed.split(/\s+/)) if (word.length >= 8) found.add(word);
    }
  }
  return [...found];
}

/** A token the server would issue, signed with `secret`. */
function tokenSignedWith(secret: string): string {
  return createJwtTokens({ secret, algorithm: 'HS256', ttlSeconds: 600, clock: systemClock }).issue({
    uid: 'intruder',
    anonymous: false,
  }).accessToken;
}

describe('a start without AUTH_JWT_SECRET', () => {
  let dataDir: string;
  let first: GatewayProcess;
  let second: GatewayProcess;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'qrshirt-secret-'));
    // Two processes on one data folder at once, as start:distributed runs its gateways.
    [first, second] = await Promise.all([
      startGatewayProcess({ DATA_DIR: dataDir, AUTH_JWT_SECRET: '' }),
      startGatewayProcess({ DATA_DIR: dataDir, AUTH_JWT_SECRET: '' }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([first?.terminate(), second?.terminate()]);
    await rm(dataDir, { recursive: true, force: true });
  });

  it('generates a 256-bit secret, readable by its owner only, that every process on the folder shares', async () => {
    const file = path.join(dataDir, 'auth-secret');
    expect(readFileSync(file, 'utf8').trim()).toMatch(/^[0-9a-f]{64}$/);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const session = await signUp(createApiClient(first.url));
    const answer = await createApiClient(second.url)('GET', `/api/user/${session.user.uid}`, {
      token: session.accessToken,
    });
    expect(answer.status).toBe(200);
  });

  it('refuses a token signed with the old development secret', async () => {
    const answer = await createApiClient(first.url)('GET', '/api/user/intruder', {
      token: tokenSignedWith(OLD_DEVELOPMENT_SECRET),
    });
    expect({ status: answer.status, body: answer.body }).toEqual({
      status: 401,
      body: { error: 'Invalid or expired token' },
    });
  });

  it('refuses a token signed with any string found in the repository', async () => {
    const candidates = stringsInRepository();
    expect(candidates).toContain(OLD_DEVELOPMENT_SECRET);
    expect(candidates.length).toBeGreaterThan(10_000);
    // The secret the gateway signs with (the next test shows it accepts what that file signs) is
    // none of them: so every one of them signs a token the gateway refuses.
    const secret = readFileSync(path.join(dataDir, 'auth-secret'), 'utf8').trim();
    expect(candidates.filter((candidate) => candidate.includes(secret))).toEqual([]);
    // And the gateway says so, for every string named like a secret and a spread of the others
    // (all of them, over 100,000 requests, took minutes of CI for nothing more).
    const secretLike = candidates.filter((candidate) => /secret|jwt|token|key|password/i.test(candidate));
    const spread = candidates.filter((_, index) => index % Math.ceil(candidates.length / 1_000) === 0);
    const asked = [...new Set([...secretLike, ...spread])];
    expect(asked.length).toBeGreaterThan(1_000);
    const api = createApiClient(first.url);
    const statuses = new Map<number, number>();
    let next = 0;
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (next < asked.length) {
          const { status } = await api('GET', '/api/me', { token: tokenSignedWith(asked[next++]!) });
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
        }
      }),
    );
    expect(Object.fromEntries(statuses)).toEqual({ 401: asked.length });
  });

  it('refuses a token without its issuer or audience, even when signed with the right secret', async () => {
    const secret = readFileSync(path.join(dataDir, 'auth-secret'), 'utf8').trim();
    const session = await signUp(createApiClient(first.url));
    const uid = session.user.uid;
    const api = createApiClient(first.url);
    const now = Math.floor(Date.now() / 1000);
    const claims = { sub: uid, anon: false, iat: now, exp: now + 600 };
    const sign = (extra: object) => jwt.sign({ ...claims, ...extra }, secret, { algorithm: 'HS256' });
    const good = await api('GET', `/api/user/${uid}`, { token: sign({ iss: 'qrshirt', aud: 'qrshirt-api' }) });
    expect(good.status).toBe(200);
    for (const extra of [
      {},
      { iss: 'qrshirt' },
      { aud: 'qrshirt-api' },
      { iss: 'someone-else', aud: 'qrshirt-api' },
      { iss: 'qrshirt', aud: 'other-api' },
    ]) {
      expect((await api('GET', `/api/user/${uid}`, { token: sign(extra) })).status, JSON.stringify(extra)).toBe(401);
    }
  });
});
