import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { authSession, REFRESH_COOKIE } from '@qrshirt/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  as,
  createApiClient,
  createFundraiser,
  type GatewayProcess,
  startGatewayProcess,
  type LocalSmtp,
  signUp,
  startSmtpServer,
  tokenIn,
  uniqueEmail,
  waitFor,
  waitForMails,
  withCookieJar,
} from '@qrshirt/test-support';

interface RequestLine {
  msg: string;
  req?: { id: string; method: string; url: string };
  res?: { statusCode: number };
}

describe('the gateway process’s log', () => {
  let dataDir: string;
  let gateway: GatewayProcess;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'qrshirt-logs-'));
    // Debug: the most a log may ever hold.
    gateway = await startGatewayProcess({ DATA_DIR: dataDir, LOG_LEVEL: 'debug' });
  });
  afterAll(async () => {
    await gateway?.terminate();
    await rm(dataDir, { recursive: true, force: true });
  });

  const requestLines = () =>
    gateway.output
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as RequestLine)
      .filter((line) => line.req !== undefined);

  it('carries one JSON line per request with its request id, taken from x-request-id or made, and echoed', async () => {
    const api = createApiClient(gateway.url);
    const given = await api('GET', '/api/shirts', { headers: { 'x-request-id': 'support-ticket-4711' } });
    expect(given.headers.get('x-request-id')).toBe('support-ticket-4711');
    const made = await api('GET', '/api/charities');
    const madeId = made.headers.get('x-request-id')!;
    expect(madeId).toMatch(/^[0-9a-f-]{36}$/);
    // Not a header to trust blindly: anything but a short plain token is replaced.
    const odd = await api('GET', '/api/shirts', { headers: { 'x-request-id': 'two words\u00e9' } });
    const oddId = odd.headers.get('x-request-id')!;
    expect(oddId).toMatch(/^[0-9a-f-]{36}$/);

    // Lines are written in order: once a later request's line is there, every line of these is.
    await api('GET', '/api/shirts', { headers: { 'x-request-id': 'logged-after' } });
    await waitFor('the later request logged', () => requestLines().some((line) => line.req!.id === 'logged-after'));
    const lines = requestLines();
    for (const id of ['support-ticket-4711', madeId, oddId]) {
      expect(
        lines.filter((line) => line.req!.id === id),
        id,
      ).toHaveLength(1);
    }
    expect(lines.find((line) => line.req!.id === madeId)!.req).toEqual({
      id: madeId,
      method: 'GET',
      url: '/api/charities',
    });
  });

  it('carries a line for every scan that fails, with its request id and status, and none for one answered 202', async () => {
    const api = createApiClient(gateway.url);
    const fundraiser = await createFundraiser(api, as(await signUp(api)));
    const scan = (id: string, requestId: string) =>
      api('POST', `/api/fundraisers/${id}/scan`, { headers: { 'x-request-id': requestId } });
    expect((await scan(fundraiser.id, 'scan-accepted')).status).toBe(202);
    const unknown = await scan('no-such-fundraiser', 'scan-unknown');
    expect(unknown).toMatchObject({ status: 404, body: { error: expect.any(String) } });
    expect(unknown.headers.get('x-request-id')).toBe('scan-unknown');
    const malformed = await scan('not.an.id', 'scan-malformed');
    expect(malformed).toMatchObject({ status: 400, body: { error: expect.stringContaining('id') } });

    const lineOf = (id: string) => requestLines().find((line) => line.req!.id === id);
    await expect.poll(() => lineOf('scan-malformed')).toBeDefined();
    expect(lineOf('scan-unknown')).toMatchObject({
      req: { method: 'POST', url: '/api/fundraisers/no-such-fundraiser/scan' },
      res: { statusCode: 404 },
    });
    expect(lineOf('scan-malformed')).toMatchObject({ res: { statusCode: 400 } });
    // Lines are written in order: the failures' lines are there, so the accepted scan's would be.
    expect(requestLines().filter((line) => line.req!.url.endsWith(`${fundraiser.id}/scan`))).toEqual([]);
  });

  it('holds no password, access token, refresh token or reset link in any line, after a whole account lifecycle', async () => {
    const api = withCookieJar(createApiClient(gateway.url));
    const email = uniqueEmail('logs');
    const password = 'first-Secret-Passw0rd';
    const newPassword = 'second-Secret-Passw0rd';
    const secrets: string[] = [password, newPassword];
    const keep = (answer: { status: number; body: unknown }) => {
      const session = authSession.parse(answer.body);
      secrets.push(session.accessToken, api.cookie(REFRESH_COOKIE)!);
      // The signature alone would identify a leaked token too.
      secrets.push(session.accessToken.split('.').at(-1)!);
      return session;
    };

    const signedUp = keep(await api('POST', '/api/auth/signup', { body: { email, password, displayName: 'Logs' } }));
    expect((await api('POST', '/api/auth/signin', { body: { email, password: 'not-the-Passw0rd' } })).status).toBe(401);
    secrets.push('not-the-Passw0rd');
    keep(await api('POST', '/api/auth/signin', { body: { email, password } }));
    keep(await api('POST', '/api/auth/refresh'));
    await createFundraiser(api, as(signedUp));
    await api('GET', `/api/user/${signedUp.user.uid}/stats`, { token: signedUp.accessToken });
    // A token in a query string (how a stream that cannot send headers would carry one).
    await api('GET', `/api/shirts?access_token=${signedUp.accessToken}&sort=new`);
    await api('GET', '/api/user/nobody/stats', { token: `${signedUp.accessToken}tampered` });

    expect((await api('POST', '/api/auth/password-reset', { body: { email } })).status).toBe(202);
    const mails = await waitForMails(dataDir, email, 2);
    const link = tokenIn(
      mails.find((mail) => mail.text.includes('#reset='))!,
      'signin',
      'reset',
    );
    // The verification link too: a mailed token is a secret like the others.
    secrets.push(
      link,
      tokenIn(
        mails.find((mail) => mail.text.includes('#token='))!,
        'verify-email',
      ),
    );
    expect(
      (await api('POST', '/api/auth/password-reset/confirm', { body: { token: link, password: newPassword } })).status,
    ).toBe(204);
    keep(await api('POST', '/api/auth/signin', { body: { email, password: newPassword } }));

    expect(await gateway.terminate()).toBe(0);
    const output = gateway.output;
    expect(output.length).toBeGreaterThan(10);
    for (const line of output) {
      for (const secret of secrets) expect(line.includes(secret), `a secret in: ${line}`).toBe(false);
      expect(line, 'a bearer header in the log').not.toMatch(/bearer\s+ey/i);
    }
    // It did log those requests, only without what they carried.
    expect(output.some((line) => line.includes('"url":"/api/auth/signin"'))).toBe(true);
    expect(output.some((line) => line.includes('access_token=[redacted]&sort=new'))).toBe(true);
  });
});

describe('the gateway process’s log, about people', () => {
  let dataDir: string;
  let gateway: GatewayProcess;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'qrshirt-logs-'));
    gateway = await startGatewayProcess({ DATA_DIR: dataDir, LOG_LEVEL: 'trace' });
  });
  afterAll(async () => {
    await gateway?.terminate();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('holds no name or email address after sign-up, a waitlist join, bad input and mail', async () => {
    const api = createApiClient(gateway.url);
    const email = uniqueEmail('zelda');
    const name = 'Zelda Quartermain';
    const signedUp = await api('POST', '/api/auth/signup', {
      body: { email, password: 'a-Long-Passw0rd', displayName: name },
    });
    expect(signedUp.status).toBe(201);
    const [{ body: shirts }, { body: charities }] = await Promise.all([
      api('GET', '/api/shirts'),
      api('GET', '/api/charities'),
    ]);
    const shirt = (shirts as { id: string; sizes: string[] }[])[0]!;
    const joined = await api('POST', '/api/waitlist', {
      body: {
        name,
        email,
        selectedSize: shirt.sizes[0],
        shirtId: shirt.id,
        selectedCharity: (charities as { id: string }[])[0]!.id,
      },
    });
    expect(joined.status).toBe(201);
    // Bad input that names the person: a malformed address, a body that is not JSON, a query string.
    expect(
      (await api('POST', '/api/auth/signup', { body: { email: `${name} <${email}`, password: 'x' } })).status,
    ).toBe(400);
    const notJson = await fetch(`${gateway.url}/api/waitlist`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: `{"name":"${name}","email":"${email}"`,
    });
    expect(notJson.status).toBe(400);
    await api('GET', `/api/shirts?email=${encodeURIComponent(email)}&name=${encodeURIComponent(name)}`);
    await api('GET', `/waitlist/${email}?contact=${email}`);
    expect((await api('POST', '/api/auth/signin', { body: { email, password: 'not-the-Passw0rd' } })).status).toBe(401);
    // Mail to the person: the verification and the waitlist confirmation, written as files.
    await waitForMails(dataDir, email, 2);

    expect(await gateway.terminate()).toBe(0);
    const output = gateway.output;
    expectNoPersonalData(output, [email, name]);
    // Those requests were logged, only without the person.
    expect(output.some((line) => line.includes('"url":"/api/shirts?email=[redacted]&name=[redacted]"'))).toBe(true);
    expect(output.some((line) => line.includes('"url":"/waitlist/[email]?contact=[email]"'))).toBe(true);
    expect(output.filter((line) => line.includes('mail written to')).length).toBeGreaterThanOrEqual(2);
  });
});

/** Neither the whole value nor its parts (a first name, an address's local part or domain) in any line. */
function expectNoPersonalData(lines: string[], values: string[]) {
  const parts = values.flatMap((value) => [value, ...value.split(/[@\s]/)]).map((part) => part.toLowerCase());
  for (const line of lines) {
    const lower = line.toLowerCase();
    for (const part of parts) expect(lower.includes(part), `"${part}" in: ${line}`).toBe(false);
  }
}

describe('the gateway’s log files under LOG_DIR', () => {
  let dataDir: string;
  let logDir: string;
  let smtp: LocalSmtp;
  let gateway: GatewayProcess;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'qrshirt-logs-'));
    logDir = path.join(dataDir, 'logs');
    // A mail server that refuses the address and says so, as Postfix does.
    smtp = await startSmtpServer({ refuseRecipients: true });
    gateway = await startGatewayProcess({ DATA_DIR: dataDir, LOG_DIR: logDir, LOG_LEVEL: 'trace', SMTP_URL: smtp.url });
  });
  afterAll(async () => {
    await gateway?.terminate();
    await smtp?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('get every line instead of stdout, today’s file, and no address a mail server echoed', async () => {
    const api = createApiClient(gateway.url);
    const email = uniqueEmail('refused');
    const name = 'Yorick Vandersloot';
    await api('POST', '/api/auth/signup', { body: { email, password: 'a-Long-Passw0rd', displayName: name } });
    const read = async () => {
      const files = await readdir(logDir);
      return (await Promise.all(files.map((file) => readFile(path.join(logDir, file), 'utf8')))).join('');
    };
    await expect.poll(read).toContain('mail not delivered');

    expect(await gateway.terminate()).toBe(0);
    const today = new Date();
    const day = [today.getFullYear(), today.getMonth() + 1, today.getDate()]
      .map((part) => String(part).padStart(2, '0'))
      .join('-');
    expect(await readdir(logDir)).toEqual([`gateway.${day}.1.log`]);
    const lines = (await read()).trim().split('\n');
    expect(lines.some((line) => line.includes('"url":"/api/auth/signup"'))).toBe(true);
    expect(lines.find((line) => line.includes('mail not delivered'))).toContain(
      '<[email]>: Recipient address rejected',
    );
    expectNoPersonalData(lines, [email, name]);
    expect(gateway.output.filter((line) => line.startsWith('{'))).toEqual([]);
  });
});
