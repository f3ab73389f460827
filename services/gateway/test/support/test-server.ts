import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Clock, type EventStore, systemClock } from '@qrshirt/core';
import {
  type ApiClient,
  createApiClient,
  type RequestOptions,
  TEST_ALTCHA_MAX_NUMBER,
  TEST_PASSWORD_SCRYPT_N,
  TEST_JWT_SECRET,
  TEST_LOOKUP_KEY_SECRET,
  TEST_WEBHOOK_SECRET,
} from '@qrshirt/test-support';
import type { Logger } from 'pino';
import { createJwtTokens } from '../../src/auth/jwt-tokens';
import { type Config, loadConfig } from '../../src/config';
import { createEmbeddedProcess, type EmbeddedProcess } from '../../src/embedded';

export interface TestServer {
  url: string;
  /** Where /metrics and /readyz are served: the operations port, a free one of its own. */
  opsUrl: string;
  embedded: EmbeddedProcess;
  dataDir: string;
  api: ApiClient;
  /** Requests to the operations port. */
  ops: ApiClient;
  stop(): Promise<void>;
}

/** The embedded process on a temp data folder and a free loopback port, as `npm start` runs it. */
export async function startTestServer(
  options: {
    env?: Record<string, string>;
    clock?: Clock;
    dataDir?: string;
    log?: Logger;
    /** How often the daily summary job looks for a day that ended. */
    dailySummaryIntervalMs?: number;
    /** The event store to use instead of the configured one, made from the configuration. */
    eventStore?: (config: Config) => EventStore;
  } = {},
): Promise<TestServer> {
  const dataDir = options.dataDir ?? (await mkdtemp(path.join(tmpdir(), 'qrshirt-test-')));
  const config: Config = loadConfig({
    DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    // Free ports picked by the OS: parallel test files never compete for the default.
    OPS_PORT: '0',
    LOG_LEVEL: 'silent',
    AUTH_JWT_SECRET: TEST_JWT_SECRET,
    LOOKUP_KEY_SECRET: TEST_LOOKUP_KEY_SECRET,
    DONATION_WEBHOOK_SECRET: TEST_WEBHOOK_SECRET,
    ALTCHA_MAX_NUMBER: TEST_ALTCHA_MAX_NUMBER,
    PASSWORD_SCRYPT_N: TEST_PASSWORD_SCRYPT_N,
    ...options.env,
  });
  const embedded = await createEmbeddedProcess(config, {
    ...(options.clock && { clock: options.clock }),
    ...(options.log && { log: options.log }),
    ...(options.dailySummaryIntervalMs !== undefined && { dailySummaryIntervalMs: options.dailySummaryIntervalMs }),
    ...(options.eventStore && { eventStore: options.eventStore(config) }),
  });
  const { url, opsUrl } = await embedded.listen();
  return {
    url,
    opsUrl,
    embedded,
    dataDir,
    api: createApiClient(url),
    ops: createApiClient(opsUrl),
    async stop() {
      await embedded.close();
      if (!options.dataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Access tokens as the server issues them, signed with the secret the test servers and gateway
 * processes of this test run share: the gateway's own tests act as any user without signing up.
 */
const testTokens = createJwtTokens({
  secret: TEST_JWT_SECRET,
  algorithm: 'HS256',
  ttlSeconds: 3600,
  clock: systemClock,
});
export const userToken = (uid: string) => testTokens.issue({ uid, anonymous: false }).accessToken;
export const anonymousToken = (uid: string) => testTokens.issue({ uid, anonymous: true }).accessToken;
/** Request options of user `uid`, for createFundraiser and the like. */
export const asUser = (uid: string): RequestOptions => ({ token: userToken(uid) });
