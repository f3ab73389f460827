import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { altchaChallenge, apiRouteList } from '@qrshirt/contracts';
import {
  as,
  createFundraiser,
  newClient,
  type RequestOptions,
  signUp,
  solveProofOfWork,
  uniqueEmail,
} from '@qrshirt/test-support';
import { describeWithRedis } from '@qrshirt/test-support/vitest';
import { createChallenge, solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  PROOF_OF_WORK_EXPIRED,
  PROOF_OF_WORK_INVALID,
  PROOF_OF_WORK_MISSING,
  PROOF_OF_WORK_USED,
} from '../src/http/proof-of-work';
import { asUser, startTestServer, type TestServer } from './support/test-server';

const EXPIRY_SECONDS = 600;

const decode = (payload: string) => JSON.parse(Buffer.from(payload, 'base64').toString('utf8'));
const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64');
const withProof = (proof: string, options: RequestOptions = {}): RequestOptions => ({
  ...options,
  headers: { ...newClient(), ...options.headers, 'x-altcha': proof },
});
const resetOf = (email = uniqueEmail('reset')) => ({ body: { email } });

describe('the proof of work of anonymous forms (ALTCHA)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { ALTCHA_EXPIRY_SECONDS: String(EXPIRY_SECONDS) } });
  });
  afterAll(() => server.stop());

  it("answers a challenge in the widget's format: signed, expiring, new each time, never cached", async () => {
    const before = Math.floor(Date.now() / 1000);
    const [first, second] = await Promise.all([
      fetch(`${server.url}/api/challenge`),
      fetch(`${server.url}/api/challenge`),
    ]);
    expect(first.headers.get('cache-control')).toBe('no-store');
    const [one, other] = [altchaChallenge.parse(await first.json()), altchaChallenge.parse(await second.json())];
    expect(one.parameters).toMatchObject({ algorithm: 'SHA-256', cost: 1, keyLength: 32 });
    expect(one.parameters.keyPrefix).toMatch(/^[0-9a-f]+$/);
    expect(one.signature).toMatch(/^[0-9a-f]{64}$/);
    expect(one.parameters.expiresAt).toBeGreaterThanOrEqual(before + EXPIRY_SECONDS);
    expect(one.parameters.expiresAt).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + EXPIRY_SECONDS);
    expect(other.parameters.nonce).not.toBe(one.parameters.nonce);
    // altcha-lib, which the widget runs in its workers, solves it.
    expect(await solveChallenge({ challenge: one, deriveKey })).toMatchObject({ counter: expect.any(Number) });
  });

  it('refuses each protected form without one, with 400 JSON, and does what it asks for not', async () => {
    const email = uniqueEmail('no-proof');
    const session = await signUp(server.api);
    const none = { headers: { ...newClient(), 'x-altcha': '' } };
    const answers = [
      await server.api('POST', '/api/auth/signup', {
        ...none,
        body: { email, password: 'long enough', displayName: 'Bot' },
      }),
      await server.api('POST', '/api/waitlist', {
        ...none,
        body: { shirtId: 'scan-me-maybe', selectedSize: 'M', selectedCharity: 'givedirectly', name: 'Bot', email },
      }),
      await server.api('POST', '/api/auth/password-reset', { ...none, ...resetOf(email) }),
      await server.api('POST', '/api/auth/verify-email/resend', {
        token: as(session).token,
        headers: { ...as(session).headers, ...none.headers },
      }),
    ];
    for (const answer of answers) expect(answer).toMatchObject({ status: 400, body: { error: PROOF_OF_WORK_MISSING } });
    // No account was opened with the address: it can still sign up.
    expect(
      (
        await server.api('POST', '/api/auth/signup', {
          headers: newClient(),
          body: { email, password: 'long enough', displayName: 'Ada' },
        })
      ).status,
    ).toBe(201);
  });

  it('refuses a forged one: another key, a challenge changed after signing, a wrong solution, not a payload', async () => {
    const valid = decode(await solveProofOfWork(server.url));
    const foreign = await createChallenge({
      algorithm: 'SHA-256',
      cost: 1,
      counter: 3,
      deriveKey,
      expiresAt: new Date(Date.now() + 60_000),
      hmacSignatureSecret: 'a key that is not the gateway one',
    });
    const forged = [
      encode({ challenge: foreign, solution: await solveChallenge({ challenge: foreign, deriveKey }) }),
      encode({
        ...valid,
        challenge: {
          ...valid.challenge,
          signature: valid.challenge.signature.replace(/^./, (c: string) => (c === '0' ? '1' : '0')),
        },
      }),
      encode({
        ...valid,
        challenge: {
          ...valid.challenge,
          parameters: { ...valid.challenge.parameters, expiresAt: valid.challenge.parameters.expiresAt + 3600 },
        },
      }),
      encode({
        ...valid,
        solution: {
          ...valid.solution,
          derivedKey: valid.solution.derivedKey.replace(/.$/, (c: string) => (c === '0' ? '1' : '0')),
        },
      }),
      encode({ challenge: null, solution: null, test: true }),
      'not base64 JSON at all',
    ];
    for (const proof of forged) {
      const answer = await server.api('POST', '/api/auth/password-reset', withProof(proof, resetOf()));
      expect(answer).toMatchObject({ status: 400, body: { error: PROOF_OF_WORK_INVALID } });
    }
    // The genuine one was not spent by its forgeries.
    expect((await server.api('POST', '/api/auth/password-reset', withProof(encode(valid), resetOf()))).status).toBe(
      202,
    );
  });

  it('refuses one whose challenge expired', async () => {
    const proof = await solveProofOfWork(server.url);
    // altcha-lib reads the system clock, as the rate limits do.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + (EXPIRY_SECONDS + 1) * 1000 });
    try {
      const answer = await server.api('POST', '/api/auth/password-reset', withProof(proof, resetOf()));
      expect(answer).toMatchObject({ status: 400, body: { error: PROOF_OF_WORK_EXPIRED } });
    } finally {
      vi.useRealTimers();
    }
  });

  it('accepts a valid one once', async () => {
    const proof = await solveProofOfWork(server.url);
    expect((await server.api('POST', '/api/auth/password-reset', withProof(proof, resetOf()))).status).toBe(202);
    const again = await server.api('POST', '/api/auth/password-reset', withProof(proof, resetOf()));
    expect(again).toMatchObject({ status: 400, body: { error: PROOF_OF_WORK_USED } });
    // Two requests at once with one solution: one is let through.
    const twice = await solveProofOfWork(server.url);
    const statuses = await Promise.all(
      [1, 2].map(() => server.api('POST', '/api/auth/password-reset', withProof(twice, resetOf()))),
    );
    expect(statuses.map((answer) => answer.status).sort()).toEqual([202, 400]);
  });

  it('does not spend a solution on a request refused for its body', async () => {
    const proof = await solveProofOfWork(server.url);
    const malformed = await server.api('POST', '/api/auth/password-reset', withProof(proof, { body: { email: 42 } }));
    expect(malformed.status).toBe(400);
    expect(malformed.body.error).not.toBe(PROOF_OF_WORK_MISSING);
    expect((await server.api('POST', '/api/auth/password-reset', withProof(proof, resetOf()))).status).toBe(202);
  });

  it('asks for it on exactly the anonymous forms that write, mail or call Stripe, and documents it; never on scans', async () => {
    expect(
      apiRouteList
        .filter((route) => route.challenge)
        .map((route) => route.operationId)
        .sort(),
    ).toEqual(['createCheckout', 'joinWaitlist', 'requestPasswordReset', 'resendVerification', 'signUp']);
    const { body } = await server.api('GET', '/api/openapi.json');
    const reset = body.paths['/api/auth/password-reset'].post;
    expect(reset.parameters).toContainEqual(
      expect.objectContaining({ name: 'X-Altcha', in: 'header', required: true }),
    );
    expect(reset.responses['400'].description).toContain('proof of work (X-Altcha)');
    expect(JSON.stringify(body.paths['/api/fundraisers/{id}/scan'])).not.toContain('X-Altcha');
    const fundraiser = await createFundraiser(server.api, asUser('pow-owner'));
    const scan = await fetch(`${server.url}/api/fundraisers/${fundraiser.id}/scan`, { method: 'POST' });
    expect(scan.status).toBe(202);
  });
});

describeWithRedis(
  'one proof of work for every gateway sharing the credentials store',
  (redis) => {
    const dirs: string[] = [];
    let gateways: TestServer[] = [];
    beforeAll(async () => {
      for (let i = 0; i < 2; i++) dirs.push(await mkdtemp(path.join(tmpdir(), 'qrshirt-pow-')));
      gateways = await Promise.all(
        dirs.map((dataDir) => startTestServer({ env: { REDIS_URL: redis.url, CREDENTIALS_STORE: 'redis' }, dataDir })),
      );
    });
    afterAll(async () => {
      await Promise.all(gateways.map((gateway) => gateway.stop()));
      await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
    });

    it("accepts one gateway's challenge at another, and its solution once in all", async () => {
      const [one, other] = gateways as [TestServer, TestServer];
      const proof = await solveProofOfWork(one.url);
      expect((await other.api('POST', '/api/auth/password-reset', withProof(proof, resetOf()))).status).toBe(202);
      const reused = await one.api('POST', '/api/auth/password-reset', withProof(proof, resetOf()));
      expect(reused).toMatchObject({ status: 400, body: { error: PROOF_OF_WORK_USED } });
    });
  },
  { ownServer: true },
);
