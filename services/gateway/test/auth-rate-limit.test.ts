import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { describeWithRedis } from '@qrshirt/test-support/vitest';
import { REFRESH_COOKIE } from '@qrshirt/contracts';
import { as, type RequestOptions, signUp, startRedis, uniqueEmail, withCookieJar } from '@qrshirt/test-support';
import { createRateLimiter } from '../src/auth/rate-limiter';
import { expectAuthError, testClock } from './support/accounts';
import { startTestServer, type TestServer } from './support/test-server';

const TOO_MANY = 'Too many failed attempts. Please try again later.';

let nextAddress = 0;
/** A client address of its own per test (the gateway trusts X-Forwarded-For from loopback). */
const newAddress = () => `198.51.${Math.floor(++nextAddress / 250)}.${(nextAddress % 250) + 1}`;
const from = (address: string, options: RequestOptions = {}): RequestOptions => ({
  ...options,
  headers: { ...options.headers, 'x-forwarded-for': address },
});

let nextNumber = 0;
const newNumber = () => `+4420${String(process.pid % 1000).padStart(3, '0')}${String(++nextNumber).padStart(5, '0')}`;

/** The same scenarios on the in-process counters and on Redis's. */
function rateLimitScenarios(server: () => TestServer) {
  const api = (method: string, url: string, options?: RequestOptions) => server().api(method, url, options);

  it('stops the address that guesses at an account after 5 failures, and never locks out its owner', async () => {
    const email = uniqueEmail('target');
    await signUp(api, { email, password: 'the-real-password' });
    const attacker = newAddress();
    const guess = (address: string, attempt: number) =>
      api('POST', '/api/auth/signin', from(address, { body: { email, password: `guess-${attempt}` } }));
    for (let attempt = 1; attempt <= 5; attempt++) expect((await guess(attacker, attempt)).status).toBe(401);
    expectAuthError(await guess(attacker, 6), 429, 'too-many-requests', TOO_MANY);
    // Four more from elsewhere reach the account's allowance of 10 (the refused one counted too):
    // the owner's attempt, past it, still gets in; only the one after it would wait.
    for (let attempt = 7; attempt <= 10; attempt++) expect((await guess(newAddress(), attempt)).status).toBe(401);
    const owner = await api(
      'POST',
      '/api/auth/signin',
      from(newAddress(), { body: { email, password: 'the-real-password' } }),
    );
    expect(owner.status).toBe(200);

    const bystander = uniqueEmail('bystander');
    await signUp(api, { email: bystander, password: 'bystander-password' });
    expect(
      (
        await api(
          'POST',
          '/api/auth/signin',
          from(attacker, { body: { email: bystander, password: 'bystander-password' } }),
        )
      ).status,
    ).toBe(200);
  });

  it('does not count successful sign-ins', async () => {
    const email = uniqueEmail('regular');
    await signUp(api, { email, password: 'my-password' });
    const home = newAddress();
    for (let visit = 1; visit <= 12; visit++) {
      expect(
        (await api('POST', '/api/auth/signin', from(home, { body: { email, password: 'my-password' } }))).status,
      ).toBe(200);
    }
  });

  it('stops one address after 50 failed sign-ins across accounts', async () => {
    const crawler = newAddress();
    const failures = await Promise.all(
      Array.from({ length: 50 }, () =>
        api('POST', '/api/auth/signin', from(crawler, { body: { email: uniqueEmail(), password: 'a-guess' } })),
      ),
    );
    expect(new Set(failures.map((answer) => answer.body.code))).toEqual(new Set(['invalid-credential']));
    const email = uniqueEmail('crawled');
    await signUp(api, { email, password: 'long-enough' });
    const body = { email, password: 'long-enough' };
    expectAuthError(await api('POST', '/api/auth/signin', from(crawler, { body })), 429, 'too-many-requests', TOO_MANY);
    expect((await api('POST', '/api/auth/signin', from(newAddress(), { body }))).status).toBe(200);
  });

  it('opens at most 20 accounts an hour from one address, successful sign-ups included', async () => {
    const office = newAddress();
    const signUpFrom = (address: string) =>
      api(
        'POST',
        '/api/auth/signup',
        from(address, { body: { email: uniqueEmail(), password: 'long-enough', displayName: 'x' } }),
      );
    const answers = await Promise.all(Array.from({ length: 20 }, () => signUpFrom(office)));
    expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(201));
    const refused = await signUpFrom(office);
    expectAuthError(refused, 429, 'too-many-requests', TOO_MANY);
    // Told when to come back: the hour's window started with the first sign-up.
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(3_500);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(3_600);
    expect((await signUpFrom(newAddress())).status).toBe(201);
  });

  it('starts at most 60 anonymous sessions an hour for one address', async () => {
    const visitor = newAddress();
    const sessions = await Promise.all(
      Array.from({ length: 60 }, () => api('POST', '/api/auth/anonymous', from(visitor))),
    );
    expect(new Set(sessions.map((answer) => answer.status))).toEqual(new Set([200]));
    expectAuthError(await api('POST', '/api/auth/anonymous', from(visitor)), 429, 'too-many-requests', TOO_MANY);
    expect((await api('POST', '/api/auth/anonymous', from(newAddress()))).status).toBe(200);
  });

  it('counts an IPv6 client by its /64, and an IPv4-mapped address as the IPv4 one', async () => {
    const subscriber = `2001:db8:${(++nextAddress).toString(16)}:1`;
    const sessions = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        api('POST', '/api/auth/anonymous', from(`${subscriber}:${(i + 1).toString(16)}::${i + 1}`)),
      ),
    );
    expect(new Set(sessions.map((answer) => answer.status))).toEqual(new Set([200]));
    expectAuthError(
      await api('POST', '/api/auth/anonymous', from(`${subscriber}:ffff:ffff:ffff:ffff`)),
      429,
      'too-many-requests',
      TOO_MANY,
    );
    expect((await api('POST', '/api/auth/anonymous', from(`${subscriber.replace(/:1$/, ':2')}::1`))).status).toBe(200);

    const visitor = newAddress();
    const halves = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        api('POST', '/api/auth/anonymous', from(i % 2 ? visitor : `::ffff:${visitor}`)),
      ),
    );
    expect(new Set(halves.map((answer) => answer.status))).toEqual(new Set([200]));
    expectAuthError(
      await api('POST', '/api/auth/anonymous', from(`::ffff:${visitor}`)),
      429,
      'too-many-requests',
      TOO_MANY,
    );
  });

  it('sends at most 10 codes to a number and 50 from an address', async () => {
    const number = newNumber();
    for (let start = 1; start <= 10; start++) {
      expect(
        (await api('POST', '/api/auth/phone/start', from(newAddress(), { body: { phoneNumber: number } }))).status,
      ).toBe(202);
    }
    const eleventh = await api('POST', '/api/auth/phone/start', from(newAddress(), { body: { phoneNumber: number } }));
    expectAuthError(eleventh, 429, 'too-many-requests', TOO_MANY);

    const sender = newAddress();
    for (let start = 1; start <= 50; start++) {
      expect(
        (await api('POST', '/api/auth/phone/start', from(sender, { body: { phoneNumber: newNumber() } }))).status,
      ).toBe(202);
    }
    expectAuthError(
      await api('POST', '/api/auth/phone/start', from(sender, { body: { phoneNumber: newNumber() } })),
      429,
      'too-many-requests',
      TOO_MANY,
    );
  });

  it('limits wrong phone codes per address', async () => {
    const guesser = newAddress();
    for (let attempt = 1; attempt <= 50; attempt++) {
      const answer = await api(
        'POST',
        '/api/auth/phone/confirm',
        from(guesser, { body: { verificationId: 'guess', code: '123456' } }),
      );
      expect(answer.status).toBe(400);
    }
    const answer = await api(
      'POST',
      '/api/auth/phone/confirm',
      from(guesser, { body: { verificationId: 'guess', code: '123456' } }),
    );
    expectAuthError(answer, 429, 'too-many-requests', TOO_MANY);
  });

  it('mails an account at most 3 reset or verification links a day, whoever asks', async () => {
    const email = uniqueEmail('reset');
    const session = await signUp(api, { email });
    for (let request = 1; request <= 2; request++) {
      expect((await api('POST', '/api/auth/password-reset', from(newAddress(), { body: { email } }))).status).toBe(202);
    }
    // Verification links share the budget: they go to the same mailbox.
    const resend = await api('POST', '/api/auth/verify-email/resend', from(newAddress(), { ...as(session) }));
    expect(resend.status).toBe(202);
    const fourth = await api('POST', '/api/auth/password-reset', from(newAddress(), { body: { email } }));
    expectAuthError(fourth, 429, 'too-many-requests', TOO_MANY);
    expectAuthError(
      await api('POST', '/api/auth/verify-email/resend', from(newAddress(), { ...as(session) })),
      429,
      'too-many-requests',
      TOO_MANY,
    );
  });

  it('lets one address ask for at most 20 such mails an hour, as many as it may open accounts', async () => {
    const asker = newAddress();
    for (let request = 1; request <= 20; request++) {
      expect(
        (await api('POST', '/api/auth/password-reset', from(asker, { body: { email: uniqueEmail('any') } }))).status,
      ).toBe(202);
    }
    const refused = await api('POST', '/api/auth/password-reset', from(asker, { body: { email: uniqueEmail('any') } }));
    expectAuthError(refused, 429, 'too-many-requests', TOO_MANY);
  });
}

describe('rate limiting with in-process counters', () => {
  const time = testClock();
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ clock: time.clock });
  });
  afterAll(() => server.stop());

  rateLimitScenarios(() => server);

  it('slows an account down past 10 failures from anywhere: 1 s before the next try, then twice as long', async () => {
    // On the counters themselves, whose windows and waits follow the system clock and its timers:
    // faked, so that no real wait decides anything (an HTTP round trip would need real timers).
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout'] });
    const limiter = createRateLimiter();
    try {
      const account = [{ action: 'signin', scope: 'account', subject: 'patient' }] as const;
      for (let attempt = 1; attempt <= 11; attempt++) await limiter.attempt(account);
      const waits: number[] = [];
      for (let past = 1; past <= 4; past++) {
        const refused = await limiter.attempt(account).then(
          () => undefined,
          (error: unknown) => error as { status: number; headers: Record<string, string> },
        );
        expect(refused?.status).toBe(429);
        waits.push(Number(refused!.headers['Retry-After']));
        // Just before the wait ends it still holds; once it has, the next attempt passes, and waits twice as long.
        vi.advanceTimersByTime(waits.at(-1)! * 1000 - 100);
        await expect(limiter.attempt(account)).rejects.toMatchObject({ status: 429 });
        vi.advanceTimersByTime(200);
        await limiter.attempt(account);
      }
      expect(waits).toEqual([1, 2, 4, 8]);
      // Once its window is over, the account starts afresh.
      vi.advanceTimersByTime(15 * 60_000);
      for (let attempt = 1; attempt <= 11; attempt++) await limiter.attempt(account);
    } finally {
      await limiter.close();
      vi.useRealTimers();
    }
  });

  it('costs the same per request with 20,000 other accounts counted: no sweep over every key', async () => {
    const limiter = createRateLimiter();
    try {
      const started = performance.now();
      for (let account = 0; account < 20_000; account++) {
        await limiter.attempt([{ action: 'signin', scope: 'account', subject: `flood-${account}` }]);
      }
      const perAttemptUs = ((performance.now() - started) / 20_000) * 1000;
      const target = { action: 'signin', scope: 'account', subject: 'flood-target' } as const;
      const pair = { action: 'signin', scope: 'client-account', subject: 'flood-client.flood-target' } as const;
      for (let attempt = 1; attempt <= 5; attempt++) await limiter.attempt([pair]);
      await expect(limiter.attempt([pair])).rejects.toMatchObject({ status: 429 });
      // An account's own allowance slows it down past 10: the 11th attempt is let through, the next waits.
      for (let attempt = 1; attempt <= 11; attempt++) await limiter.attempt([target]);
      await expect(limiter.attempt([target])).rejects.toMatchObject({ status: 429 });
      // Still counted one by one: a key of the flood has its own allowance left.
      await expect(
        limiter.attempt([{ action: 'signin', scope: 'account', subject: 'flood-7' }]),
      ).resolves.toBeUndefined();
      console.log(`rate limiter: ${perAttemptUs.toFixed(1)} us per attempt over 20,000 distinct accounts`);
    } finally {
      await limiter.close();
    }
  });
});

// The embedded process writes Redis's default key prefixes, so it gets a server of its own.
describeWithRedis(
  'rate limiting with counters (and credentials) in Redis',
  (redis) => {
    let dataDir: string;
    let server: TestServer;
    beforeAll(async () => {
      dataDir = await mkdtemp(path.join(tmpdir(), 'qrshirt-limits-'));
      server = await startTestServer({ env: { REDIS_URL: redis.url, CREDENTIALS_STORE: 'redis' }, dataDir });
    });
    afterAll(async () => {
      await server?.stop();
      await rm(dataDir, { recursive: true, force: true });
    });

    rateLimitScenarios(() => server);

    it('keeps the counters in Redis, where every gateway process sees them, with no personal data in the keys', async () => {
      const raw = new Redis(redis.url);
      try {
        const keys = await raw.keys('qr:rl:*');
        expect(keys.some((key) => key.startsWith('qr:rl:signin:account:'))).toBe(true);
        expect(keys.join(' ')).not.toMatch(/@|\+44/);
        for (const key of keys.slice(0, 20)) expect(await raw.pttl(key)).toBeGreaterThan(0);
      } finally {
        await raw.quit();
      }
    });

    it('keeps credentials in Redis with CREDENTIALS_STORE=redis: hashed passwords, sessions that refresh', async () => {
      const browser = withCookieJar(server.api);
      const session = await signUp(browser, { password: 'stored-in-redis' });
      const first = browser.cookie(REFRESH_COOKIE);
      const raw = new Redis(redis.url);
      try {
        expect(await raw.get(`qr:cred:pw:${session.user.uid}`)).toMatch(/^scrypt\$/);
      } finally {
        await raw.quit();
      }
      // Two rotations on, the first token is no longer the one a lost answer could have left behind.
      expect((await browser('POST', '/api/auth/refresh')).status).toBe(200);
      expect((await browser('POST', '/api/auth/refresh')).status).toBe(200);
      const replayed = await server.api('POST', '/api/auth/refresh', {
        headers: { cookie: `${REFRESH_COOKIE}=${first}` },
      });
      expect(replayed.status).toBe(401);
    });

    it('answers 503, not 500, while Redis is down', async () => {
      const own = await startRedis();
      const ownDataDir = await mkdtemp(path.join(tmpdir(), 'qrshirt-limits-down-'));
      const down = await startTestServer({ env: { REDIS_URL: own.url }, dataDir: ownDataDir });
      try {
        const email = uniqueEmail('outage');
        await signUp(down.api, { email, password: 'during-outage' });
        await own.stop();
        const answer = await down.api('POST', '/api/auth/signin', { body: { email, password: 'during-outage' } });
        expect(answer).toMatchObject({
          status: 503,
          body: { error: 'Sign-in is unavailable right now. Please try again in a moment.' },
        });
      } finally {
        await down.stop();
        await own.stop();
        await rm(ownDataDir, { recursive: true, force: true });
      }
    });
  },
  { ownServer: true },
);

describe('which client address is counted (TRUST_PROXY)', () => {
  let server: TestServer;
  afterAll(async () => {
    await server?.stop();
  });

  it('ignores X-Forwarded-For from a proxy it does not trust, so rotating it does not escape the limit', async () => {
    server = await startTestServer({ env: { TRUST_PROXY: 'false' } });
    const signUpWith = (address: string) =>
      server.api(
        'POST',
        '/api/auth/signup',
        from(address, { body: { email: uniqueEmail(), password: '123', displayName: 'x' } }),
      );
    for (let attempt = 1; attempt <= 20; attempt++)
      expect((await signUpWith(newAddress())).body.code).toBe('weak-password');
    expectAuthError(await signUpWith(newAddress()), 429, 'too-many-requests', TOO_MANY);
  });
});
