import type { Clock, CredentialsStore, LookupKeys } from '@qrshirt/core';
import type { Logger } from 'pino';
import type { Config } from '../config';
import type { AuthOptions } from './auth-options';
import type { EmailSender, SmsSender } from '../mail/message-senders';
import { createJwtTokens } from './jwt-tokens';
import { createPasswordHasher } from './passwords';
import { createRateLimiter, waitlistMail } from './rate-limiter';
import { createRedisCredentialsStore } from '@qrshirt/redis';
import { createKeyedHash, deriveSecret } from './secrets';
import { createSqliteCredentialsStore } from '@qrshirt/sqlite';
import { generatedSecret, journalErasures } from '@qrshirt/runtime';

/**
 * Credentials in a SQLite file beside the event store, or in Redis, where every gateway sees them;
 * every erasure of a personal-data key recorded in the erasure journal first.
 */
export function openCredentialsStore(config: Config): CredentialsStore {
  const store =
    config.CREDENTIALS_STORE === 'redis' && config.REDIS_URL
      ? createRedisCredentialsStore({ url: config.REDIS_URL })
      : createSqliteCredentialsStore({ path: config.credentialsFile });
  return journalErasures(store, config.erasureJournalFile);
}

/**
 * The sign-in machinery from configuration, over the credentials store it is given and then
 * closes; rate-limit counters in Redis whenever there is one, so every gateway shares them.
 */
export function createAuth(
  config: Config,
  {
    clock,
    log,
    mail,
    credentials,
    isClosedAccount,
    lookupKeys,
  }: {
    clock: Clock;
    log: Logger;
    mail: { email: EmailSender; sms: SmsSender };
    credentials: CredentialsStore;
    isClosedAccount: AuthOptions['isClosedAccount'];
    /** Names the recipients' budgets of mail. */
    lookupKeys: Pick<LookupKeys, 'email'>;
  },
): {
  options: AuthOptions;
  /** A keyed hash under the sign-in secret, for tokens other features sign (unsubscribe links). */
  keyedHash(purpose: string): (text: string) => string;
  /** A secret derived from the sign-in secret for one purpose (proof-of-work challenges). */
  derivedSecret(purpose: string): string;
  /**
   * Counts a waitlist confirmation to `to` asked for by `client` against the waitlist's budgets,
   * the recipient's and the client's; false once one is spent. Account mail has budgets of its own.
   */
  waitlistMailBudget(this: void, to: string, client: string): Promise<boolean>;
  close(): Promise<void>;
} {
  const limiter = createRateLimiter({ redisUrl: config.REDIS_URL });
  const phoneSignIn = config.NODE_ENV !== 'production';
  if (!phoneSignIn) log.warn('phone sign-in is off: no SMS provider is connected');
  const secret = config.AUTH_JWT_SECRET ?? generatedSecret(config.generatedSecretFile);
  const { GOOGLE_CLIENT_ID, GOOGLE_CLIENT_SECRET, GOOGLE_CALLBACK_URL } = config;
  const options: AuthOptions = {
    tokens: createJwtTokens({
      secret,
      algorithm: config.AUTH_JWT_ALGORITHM,
      ttlSeconds: config.ACCESS_TOKEN_TTL_SECONDS,
      clock,
    }),
    isClosedAccount,
    credentials,
    passwords: createPasswordHasher({ N: config.PASSWORD_SCRYPT_N }),
    limiter,
    sms: mail.sms,
    email: mail.email,
    phoneSignIn,
    anonymousSignIn: config.ANONYMOUS_AUTH,
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
    keyedHash: (purpose) => createKeyedHash(secret, purpose),
    derivedSecret: (purpose) => deriveSecret(secret, purpose),
    waitlistMailBudget: (to, client) => limiter.allows(waitlistMail(lookupKeys.email(to), client)),
    async close() {
      await limiter.close();
      await credentials.close();
    },
  };
}
