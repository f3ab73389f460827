import type { Clock } from '@qrshirt/core';
import type { Logger } from 'pino';
import type { Config } from '../config';
import type { AuthOptions } from './auth-options';
import { createDevOutbox } from './dev-outbox';
import { generatedSecret } from './generated-secret';
import { createJwtTokens } from './jwt-tokens';
import { createRateLimiter } from './rate-limiter';
import { createMemoryRateLimitStore } from './rate-limit-store';
import { createRedisCredentialsStore } from './redis-credentials-store';
import { createRedisRateLimitStore } from './redis-rate-limit-store';
import { createKeyedHash } from './secrets';
import { createSqliteCredentialsStore } from './sqlite-credentials-store';

/**
 * The sign-in machinery from configuration: credentials in a SQLite file beside the event store
 * (or Redis), rate-limit counters in Redis whenever there is one, so every gateway shares them.
 */
export function createAuth(config: Config, { clock, log }: { clock: Clock; log: Logger }): { options: AuthOptions; close(): Promise<void> } {
  const credentials =
    config.CREDENTIALS_STORE === 'redis' && config.REDIS_URL
      ? createRedisCredentialsStore({ url: config.REDIS_URL })
      : createSqliteCredentialsStore({ path: config.credentialsFile });
  const limits = config.REDIS_URL ? createRedisRateLimitStore({ url: config.REDIS_URL }) : createMemoryRateLimitStore({ clock });
  const outbox = createDevOutbox({ clock });
  if (config.NODE_ENV === 'production') {
    log.warn('no SMS or email provider is configured: phone codes and password reset links are not delivered');
  }
  const secret = config.AUTH_JWT_SECRET ?? generatedSecret(config.generatedSecretFile);
  const { GOOGLE_CLIENT_ID, GOOGLE_CLIENT_SECRET, GOOGLE_CALLBACK_URL } = config;
  const options: AuthOptions = {
    tokens: createJwtTokens({
      secret,
      algorithm: config.AUTH_JWT_ALGORITHM,
      ttlSeconds: config.ACCESS_TOKEN_TTL_SECONDS,
      clock,
    }),
    credentials,
    limiter: createRateLimiter(limits),
    sms: outbox,
    email: outbox,
    ...(config.NODE_ENV !== 'production' && { outbox }),
    codeHash: createKeyedHash(secret, 'phone codes'),
    refreshTtlMs: config.REFRESH_TOKEN_TTL_DAYS * 24 * 60 * 60_000,
    ...(GOOGLE_CLIENT_ID &&
      GOOGLE_CLIENT_SECRET &&
      GOOGLE_CALLBACK_URL && {
        google: {
          clientId: GOOGLE_CLIENT_ID,
          clientSecret: GOOGLE_CLIENT_SECRET,
          callbackUrl: GOOGLE_CALLBACK_URL,
          authorizationUrl: config.GOOGLE_AUTHORIZATION_URL,
          tokenUrl: config.GOOGLE_TOKEN_URL,
          userInfoUrl: config.GOOGLE_USERINFO_URL,
        },
      }),
  };
  return {
    options,
    async close() {
      await limits.close();
      await credentials.close();
    },
  };
}
