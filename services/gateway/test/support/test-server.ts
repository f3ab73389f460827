import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { answerProblem, findRoute } from '@qrshirt/contracts';
import { type Clock, systemClock } from '@qrshirt/core';
import type { Logger } from 'pino';
import { createJwtTokens } from '../../src/auth/jwt-tokens';
import { type Config, loadConfig } from '../../src/config';
import { createEmbeddedProcess, type EmbeddedProcess } from '../../src/embedded';
import { TEST_JWT_SECRET, TEST_WEBHOOK_SECRET } from './test-secret';

export interface TestServer {
  url: string;
  /** With OPS_PORT: where /metrics and /readyz are served. */
  opsUrl?: string;
  embedded: EmbeddedProcess;
  dataDir: string;
  api: ApiClient;
  stop(): Promise<void>;
}

/** The embedded process on a temp data folder and a free loopback port, as `npm start` runs it. */
export async function startTestServer(
  options: { env?: Record<string, string>; clock?: Clock; dataDir?: string; log?: Logger } = {},
): Promise<TestServer> {
  const dataDir = options.dataDir ?? (await mkdtemp(path.join(tmpdir(), 'qrshirt-test-')));
  const config: Config = loadConfig({
    DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    AUTH_JWT_SECRET: TEST_JWT_SECRET,
    DONATION_WEBHOOK_SECRET: TEST_WEBHOOK_SECRET,
    ...options.env,
  });
  const embedded = await createEmbeddedProcess(config, {
    ...(options.clock && { clock: options.clock }),
    ...(options.log && { log: options.log }),
  });
  const { url, opsUrl } = await embedded.listen();
  return {
    url,
    opsUrl,
    embedded,
    dataDir,
    api: createApiClient(url),
    async stop() {
      await embedded.close();
      if (!options.dataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

// Tests read answers field by field and assert on them, so an untyped body keeps them short.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above
export interface ApiAnswer<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export interface RequestOptions {
  body?: unknown;
  /** Sent as-is, for malformed-JSON tests. */
  rawBody?: string;
  token?: string;
  headers?: Record<string, string>;
}

export type ApiClient = (method: string, path: string, options?: RequestOptions) => Promise<ApiAnswer>;

/** Access tokens as the server issues them. */
const testTokens = createJwtTokens({
  secret: TEST_JWT_SECRET,
  algorithm: 'HS256',
  ttlSeconds: 3600,
  clock: systemClock,
});
export const userToken = (uid: string) => testTokens.issue({ uid, anonymous: false }).accessToken;
export const anonymousToken = (uid: string) => testTokens.issue({ uid, anonymous: true }).accessToken;

export function createApiClient(baseUrl: string): ApiClient {
  return async (method, path, options = {}) => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.body !== undefined || options.rawBody !== undefined) headers['content-type'] ??= 'application/json';
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    const answer = await fetch(baseUrl + path, {
      method,
      headers,
      body: options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
    });
    const text = await answer.text();
    let body: unknown = text;
    const contentType = answer.headers.get('content-type');
    if (contentType?.includes('application/json')) body = JSON.parse(text);
    // Every answer a test sees is checked against the route table: a status it does not declare,
    // or a body its schema refuses, fails the test that got it.
    const route = findRoute(method, path);
    const problem = route && answerProblem(route, { status: answer.status, contentType, body });
    if (problem) throw new Error(problem);
    return { status: answer.status, headers: answer.headers, body };
  };
}

/** A signed-in user's fundraiser for the first seeded shirt and charity. */
export async function createFundraiser(api: ApiClient, uid: string, name?: string) {
  const [shirts, charities] = await Promise.all([api('GET', '/api/shirts'), api('GET', '/api/charities')]);
  const answer = await api('POST', '/api/fundraisers', {
    token: userToken(uid),
    body: { shirtId: shirts.body[0].id, charityId: charities.body[0].id, ...(name && { name }) },
  });
  if (answer.status !== 201) throw new Error(`fundraiser not created: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body as { id: string; userId: string; charityId: string; shirtId: string; name: string };
}
