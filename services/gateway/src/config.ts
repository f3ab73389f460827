import path from 'node:path';
import {
  anonymousLogEnv,
  ConfigError,
  diskSpaceEnv,
  eventStoreEnv,
  eventStoreFile,
  loadOrExit,
  logDir,
  logLevel,
  opsServerEnv,
  optionalUrl,
} from '@qrshirt/runtime';
import { kafkaBrokerList, kafkaTopicEnv } from '@qrshirt/kafka';
import { MIN_LOOKUP_KEY_SECRET_LENGTH } from '@qrshirt/core';

export { ConfigError };
import { z } from 'zod';

const optionalText = z
  .string()
  .trim()
  .transform((value) => value || undefined)
  .optional();

const googleVariables = ['GOOGLE_CLIENT_ID', 'GOOGLE_CLIENT_SECRET', 'GOOGLE_CALLBACK_URL'] as const;
const stripeVariables = ['STRIPE_SECRET_KEY', 'STRIPE_PUBLISHABLE_KEY', 'STRIPE_WEBHOOK_SECRET'] as const;

/** Every variable of a group that is set, or one problem per variable the group then misses. */
function allOrNone(env: NodeJS.ProcessEnv, names: readonly string[]): string[] {
  const set = names.filter((name) => env[name]?.trim());
  if (set.length === 0) return [];
  return names
    .filter((name) => !set.includes(name))
    .map((name) => `${name}: required when ${set.join(' and ')} is set`);
}

/** Rules that span variables; checked on the raw environment so they are reported with the rest. */
function crossCheck(env: NodeJS.ProcessEnv): string[] {
  const problems: string[] = [];
  // A generated secret lives in DATA_DIR: fine for one machine, but production runs replicas that
  // must share it and a data folder that may be rebuilt, which would sign everyone out.
  if (env.NODE_ENV === 'production' && !env.AUTH_JWT_SECRET?.trim()) {
    problems.push('AUTH_JWT_SECRET: required in production (32+ random characters, the same in every gateway)');
  }
  // More so: another secret, or a lost one, gives every name another key, and nobody is found.
  if (env.NODE_ENV === 'production' && !env.LOOKUP_KEY_SECRET?.trim()) {
    problems.push(
      'LOOKUP_KEY_SECRET: required in production (32+ random characters, the same in every gateway and never changed)',
    );
  }
  if (env.PROJECTIONS === 'off' && !env.REDIS_URL?.trim()) {
    problems.push('REDIS_URL: required when PROJECTIONS=off (the projector process writes the read models there)');
  }
  if (env.CREDENTIALS_STORE === 'redis' && !env.REDIS_URL?.trim()) {
    problems.push('REDIS_URL: required when CREDENTIALS_STORE=redis');
  }
  problems.push(...allOrNone(env, googleVariables), ...allOrNone(env, stripeVariables));
  // Live keys with test keys would take real money and show it nowhere, or the other way round.
  const secretMode = /^[sr]k_(live|test)_/.exec(env.STRIPE_SECRET_KEY?.trim() ?? '')?.[1];
  const publishableMode = /^pk_(live|test)_/.exec(env.STRIPE_PUBLISHABLE_KEY?.trim() ?? '')?.[1];
  if (secretMode && publishableMode && secretMode !== publishableMode) {
    problems.push(`STRIPE_PUBLISHABLE_KEY: a ${publishableMode} key with a ${secretMode} STRIPE_SECRET_KEY`);
  }
  // It confirms whatever anyone asks: a public instance must take real money or none.
  if (env.NODE_ENV === 'production' && env.DEMO_PROCESSOR?.trim() === 'true') {
    problems.push('DEMO_PROCESSOR: must not be true with NODE_ENV=production (it confirms any donation anyone asks)');
  }
  return problems;
}

/** Fewer different characters than this: a typed word or a repeated letter, not a random secret. */
const MIN_DISTINCT_SECRET_CHARACTERS = 10;
/** scrypt's N for new password hashes: production's floor, and what tests may go down to. */
const DEFAULT_SCRYPT_N = 2 ** 15;
const MIN_SCRYPT_N = 2 ** 10;

const looksRandom = (secret: string) => secret.length >= 32 && new Set(secret).size >= MIN_DISTINCT_SECRET_CHARACTERS;

/**
 * What production refuses although development takes it, one line per variable: each of them
 * hands strangers rate-limit identities, tokens, money or mail that outside production is only
 * a convenience.
 */
function productionCheck(env: NodeJS.ProcessEnv): string[] {
  if (env.NODE_ENV !== 'production') return [];
  const value = (name: string) => env[name]?.trim() || undefined;
  const problems: string[] = [];
  if (value('TRUST_PROXY') === 'true') {
    problems.push(
      'TRUST_PROXY: must not be true in production (every client would choose the address its rate limits count); name the proxies',
    );
  }
  for (const name of ['AUTH_JWT_SECRET', 'LOOKUP_KEY_SECRET']) {
    const secret = value(name);
    if (secret && !looksRandom(secret)) {
      problems.push(`${name}: expected 32+ random characters in production, at least 10 of them different`);
    }
  }
  const scryptN = Number(value('PASSWORD_SCRYPT_N') ?? DEFAULT_SCRYPT_N);
  if (scryptN < DEFAULT_SCRYPT_N) {
    problems.push(`PASSWORD_SCRYPT_N: expected at least ${DEFAULT_SCRYPT_N} in production (a lower one is for tests)`);
  }
  const donationSecret = value('DONATION_WEBHOOK_SECRET');
  if (donationSecret && !looksRandom(donationSecret.slice('whsec_'.length))) {
    problems.push('DONATION_WEBHOOK_SECRET: expected a random key in production, not a repeated or typed one');
  }
  // Stripe's endpoints' secrets: `whsec_` and 32 letters and digits (64 hex digits from its CLI).
  for (const name of ['STRIPE_WEBHOOK_SECRET', 'STRIPE_CONNECT_WEBHOOK_SECRET']) {
    const secret = value(name);
    const key = /^whsec_([A-Za-z0-9]+)$/.exec(secret ?? '')?.[1];
    if (secret && !(key && looksRandom(key))) {
      problems.push(
        `${name}: expected the signing secret Stripe shows for the endpoint (whsec_ and 32+ letters and digits)`,
      );
    }
  }
  if (!/^https:\/\//i.test(value('PUBLIC_BASE_URL') ?? '')) {
    problems.push("PUBLIC_BASE_URL: expected https://… in production (the mailed links carry people's tokens)");
  }
  if (!value('SMTP_URL')) {
    problems.push('SMTP_URL: required in production (without it mail is written to DATA_DIR/mail/ and reaches nobody)');
  }
  return problems;
}

/** `whsec_` and the base64 of the key, as Standard Webhooks writes secrets. */
function isWebhookSecret(value: string): boolean {
  const match = /^whsec_([A-Za-z0-9+/]+={0,2})$/.exec(value);
  if (!match || match[1]!.length % 4 !== 0) return false;
  const bytes = Buffer.from(match[1]!, 'base64').length;
  return bytes >= 24 && bytes <= 64;
}

const TRUSTED_PROXY = /^(loopback|linklocal|uniquelocal|[0-9A-Fa-f:.]+(\/\d{1,3})?)$/;

export const configSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number({ error: 'expected a port number' }).int().min(0).max(65535).default(8080),
  HOST: z.string().default('0.0.0.0'),
  ...eventStoreEnv,
  ...diskSpaceEnv,
  ...anonymousLogEnv,
  REDIS_URL: optionalUrl('redis://host:port'),
  /** Scans and analytics go through Kafka (an ingestor process appends them); else in process. */
  KAFKA_BROKERS: kafkaBrokerList.optional(),
  ...kafkaTopicEnv,
  /** `off`: a projector process keeps the read models in Redis and this gateway only reads them. */
  PROJECTIONS: z.enum(['in-process', 'off'], { error: 'expected in-process or off' }).default('in-process'),
  LOG_LEVEL: logLevel,
  LOG_DIR: logDir,
  /**
   * Which proxies' X-Forwarded-For to believe (Express's `trust proxy`): the client address is
   * what rate limiting counts, so behind a load balancer it must name the balancer's network.
   */
  TRUST_PROXY: z
    .string()
    .trim()
    .default('loopback')
    .refine(
      (value) => /^(true|false|\d+)$/.test(value) || value.split(',').every((part) => TRUSTED_PROXY.test(part.trim())),
      'expected true, false, a hop count, or loopback/linklocal/uniquelocal/addresses/subnets separated by commas',
    )
    .transform((value): boolean | number | string =>
      value === 'true' ? true : value === 'false' ? false : /^\d+$/.test(value) ? Number(value) : value,
    ),
  /** Largest JSON body accepted; larger ones get 413. */
  MAX_BODY_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(64 * 1024),
  /**
   * Anonymous sessions for visitors (spec section 7). `false`: no anonymous sign-in, and the web
   * client reads the public pages without a token or any anonymous header.
   */
  ANONYMOUS_AUTH: z
    .enum(['true', 'false'], { error: 'expected true or false' })
    .default('true')
    .transform((value) => value === 'true'),
  SEED_CATALOG: z
    .enum(['true', 'false'], { error: 'expected true or false' })
    .default('true')
    .transform((value) => value === 'true'),
  /** Accounts holding one of these emails (comma-separated, any case) may use /api/admin/*. */
  ADMIN_EMAILS: z
    .string()
    .default('')
    .transform((list) =>
      list
        .split(',')
        .map((email) => email.trim().toLowerCase())
        .filter(Boolean),
    )
    .pipe(z.array(z.email('expected comma-separated email addresses'))),
  /** The web client's origin, for links sent by email (password reset). */
  PUBLIC_BASE_URL: z
    .url({ protocol: /^https?$/, error: 'expected http(s)://host[:port]' })
    .default('http://localhost:8080')
    .transform((url) => url.replace(/\/+$/, '')),
  /**
   * The erasure journal: one line per destroyed personal-data key, which `npm run restore` applies
   * again to a backup taken before. Best on another disk than DATA_DIR, so it outlives a lost one.
   */
  ERASURE_JOURNAL: optionalText,
  /** `redis` (on REDIS_URL, which must persist) for gateways on several hosts; else a SQLite file in DATA_DIR. */
  CREDENTIALS_STORE: z.enum(['sqlite', 'redis'], { error: 'expected sqlite or redis' }).default('sqlite'),
  /** Unset outside production: a random secret is generated on first start and kept in DATA_DIR. */
  AUTH_JWT_SECRET: optionalText.pipe(z.string().min(32, 'expected at least 32 characters').optional()),
  /**
   * Keys the hashes stream names and credentials find addresses, waitlist signups and phone numbers
   * by. Unset outside production: generated on first start and kept in DATA_DIR. Never changed.
   */
  LOOKUP_KEY_SECRET: optionalText.pipe(
    z
      .string()
      .min(MIN_LOOKUP_KEY_SECRET_LENGTH, `expected at least ${MIN_LOOKUP_KEY_SECRET_LENGTH} characters`)
      .optional(),
  ),
  AUTH_JWT_ALGORITHM: z.enum(['HS256', 'HS384', 'HS512'], { error: 'expected HS256, HS384 or HS512' }).default('HS256'),
  ACCESS_TOKEN_TTL_SECONDS: z.coerce
    .number({ error: 'expected a number of seconds' })
    .int('expected a number of seconds')
    .min(1, 'expected a number of seconds')
    .default(900),
  REFRESH_TOKEN_TTL_DAYS: z.coerce
    .number({ error: 'expected a number of days' })
    .int('expected a number of days')
    .min(1, 'expected a number of days')
    .default(30),
  /** Where mail goes: `smtp://user:pass@host:port` or `smtps://…`; unset: `.eml` files in DATA_DIR/mail/. */
  SMTP_URL: optionalUrl('smtp://user:password@host:port or smtps://…').refine(
    (url) => url === undefined || /^smtps?:$/.test(new URL(url).protocol),
    'expected smtp://… or smtps://…',
  ),
  /** The From of every mail. */
  MAIL_FROM: z.string().trim().min(3).default('QR Shirts <no-reply@qrshirts.example>'),
  /**
   * The donation processor's webhook signing secret (Standard Webhooks: `whsec_` and base64 of 24
   * to 64 random bytes). Unset: one generated on first start and kept in DATA_DIR.
   */
  DONATION_WEBHOOK_SECRET: optionalText.pipe(
    z.string().refine(isWebhookSecret, 'expected whsec_ followed by base64 of 24 to 64 random bytes').optional(),
  ),
  /**
   * The demo processor behind the demo widget (charges nothing, confirms every donation it is
   * asked for, as test money). Defaults to on in demo mode (no live Stripe keys) outside
   * NODE_ENV=production, where it may not be turned on.
   */
  DEMO_PROCESSOR: z.enum(['true', 'false'], { error: 'expected true or false' }).optional(),
  /** /metrics and /readyz (and /healthz) are served here only; PORT answers /healthz alone. */
  ...opsServerEnv(9464),
  /**
   * The donation widget the web client embeds (the same variable its build reads): its origin
   * is the one other site the pages may frame.
   */
  VITE_DONATION_WIDGET_URL: z.string().trim().default('/widget/demo-donation.html'),
  /** Where the web client calls the API when not on this origin (the same variable its build reads). */
  VITE_API_URL: z.string().trim().default(''),
  /**
   * The proof of work of anonymous forms (ALTCHA): the highest counter a challenge may hide, so a
   * solver tries about half of it on average (SHA-256 each; 100,000 is about a second on a phone).
   * Tests set it low.
   */
  ALTCHA_MAX_NUMBER: z.coerce
    .number({ error: 'expected a whole number' })
    .int('expected a whole number')
    .min(1, 'expected at least 1')
    .max(0xffff_ffff, 'expected at most 4294967295')
    .default(100_000),
  /**
   * The cost of hashing a new password: scrypt's N, a power of two (memory 1 KiB times N). Each
   * sign-up, reset and sign-in spends about 100 ms of a core at the default here; tests set it low,
   * and production refuses less than the default.
   */
  PASSWORD_SCRYPT_N: z.coerce
    .number({ error: 'expected a power of two' })
    .int('expected a power of two')
    .min(MIN_SCRYPT_N, `expected at least ${MIN_SCRYPT_N}`)
    .max(2 ** 20, `expected at most ${2 ** 20}`)
    .refine((n) => (n & (n - 1)) === 0, 'expected a power of two')
    .default(DEFAULT_SCRYPT_N),
  /** How long a challenge can be solved and its solution sent, in seconds. */
  ALTCHA_EXPIRY_SECONDS: z.coerce
    .number({ error: 'expected a number of seconds' })
    .int('expected a number of seconds')
    .min(1, 'expected a number of seconds')
    .default(600),
  /** Google sign-in is on when the client id, secret and callback URL are all set. */
  GOOGLE_CLIENT_ID: optionalText,
  GOOGLE_CLIENT_SECRET: optionalText,
  GOOGLE_CALLBACK_URL: optionalUrl('https://host/api/auth/google/callback'),
  /** Google's endpoints; overridable so tests can point them at a local OAuth2 server. */
  GOOGLE_AUTHORIZATION_URL: z.url('expected a URL').default('https://accounts.google.com/o/oauth2/v2/auth'),
  GOOGLE_TOKEN_URL: z.url('expected a URL').default('https://www.googleapis.com/oauth2/v4/token'),
  GOOGLE_USERINFO_URL: z.url('expected a URL').default('https://www.googleapis.com/oauth2/v3/userinfo'),
  /** Stripe takes donations when its secret key, publishable key and webhook secret are all set. */
  STRIPE_SECRET_KEY: optionalText.pipe(
    z
      .string()
      .regex(/^[sr]k_(live|test)_\w+$/, 'expected a secret or restricted key (sk_live_…, sk_test_…, rk_…)')
      .optional(),
  ),
  STRIPE_PUBLISHABLE_KEY: optionalText.pipe(
    z
      .string()
      .regex(/^pk_(live|test)_\w+$/, 'expected a publishable key (pk_live_… or pk_test_…)')
      .optional(),
  ),
  /** The signing secret of the webhook endpoint Stripe posts to (/api/webhooks/stripe). */
  STRIPE_WEBHOOK_SECRET: optionalText.pipe(
    z
      .string()
      .regex(/^whsec_\w+$/, "expected the endpoint's signing secret (whsec_…)")
      .optional(),
  ),
  /**
   * The signing secret of the Connect endpoint (the connected accounts' events, such as
   * `account.updated`), when Stripe posts them to the same URL from an endpoint of their own.
   */
  STRIPE_CONNECT_WEBHOOK_SECRET: optionalText.pipe(
    z
      .string()
      .regex(/^whsec_\w+$/, "expected the Connect endpoint's signing secret (whsec_…)")
      .optional(),
  ),
  /** Where the Stripe API answers; unset: Stripe's own. Tests and local development set stripe-mock's. */
  STRIPE_API_URL: optionalUrl('http://127.0.0.1:12111 (stripe-mock) or https://api.stripe.com'),
  /**
   * The platform's share of a donation paid to a charity's connected account (Stripe's
   * application fee), in percent; 0 takes nothing.
   */
  STRIPE_PLATFORM_FEE_PERCENT: z.coerce
    .number({ error: 'expected a percentage' })
    .min(0, 'expected a percentage from 0 to 20')
    .max(20, 'expected a percentage from 0 to 20')
    .default(0),
});

/** Stripe, when it takes donations: `live` when its keys are live keys (real money). */
export interface StripeConfig {
  secretKey: string;
  publishableKey: string;
  webhookSecret: string;
  /** The Connect endpoint's signing secret, when it has one of its own. */
  connectWebhookSecret: string | undefined;
  apiUrl: URL | undefined;
  live: boolean;
  /** The platform's share of a donation paid to a charity's connected account, in percent. */
  platformFeePercent: number;
}

function stripeConfig(settings: z.infer<typeof configSchema>): StripeConfig | null {
  const { STRIPE_SECRET_KEY: secretKey, STRIPE_PUBLISHABLE_KEY: publishableKey } = settings;
  const webhookSecret = settings.STRIPE_WEBHOOK_SECRET;
  if (!secretKey || !publishableKey || !webhookSecret) return null;
  const apiUrl = settings.STRIPE_API_URL === undefined ? undefined : new URL(settings.STRIPE_API_URL);
  return {
    secretKey,
    publishableKey,
    webhookSecret,
    connectWebhookSecret: settings.STRIPE_CONNECT_WEBHOOK_SECRET,
    apiUrl,
    live: /^[sr]k_live_/.test(secretKey),
    platformFeePercent: settings.STRIPE_PLATFORM_FEE_PERCENT,
  };
}

type StripeVariable =
  (typeof stripeVariables)[number] | 'STRIPE_API_URL' | 'STRIPE_PLATFORM_FEE_PERCENT' | 'STRIPE_CONNECT_WEBHOOK_SECRET';

export type Config = Omit<z.infer<typeof configSchema>, 'DEMO_PROCESSOR' | StripeVariable> & {
  /** Whether the demo processor takes donations (DEMO_PROCESSOR, or its default). */
  demoProcessor: boolean;
  /** No live processor takes donations: the pages show test money, labelled as such. */
  demoMode: boolean;
  /** Stripe's settings when all three of its variables are set; null: no Stripe. */
  stripe: StripeConfig | null;
  /** Where a start without DONATION_WEBHOOK_SECRET keeps the one it generated. */
  donationWebhookSecretFile: string;
  databaseFile: string;
  credentialsFile: string;
  /** The embedded read models and their checkpoints, without REDIS_URL. */
  readModelsFile: string;
  /** Where a start without AUTH_JWT_SECRET keeps the secret it generated. */
  generatedSecretFile: string;
  /** Where a start without LOOKUP_KEY_SECRET keeps the secret it generated. */
  lookupKeySecretFile: string;
  /** ERASURE_JOURNAL, or `erasures.jsonl` in DATA_DIR. */
  erasureJournalFile: string;
  /** `.eml` files of mail when there is no SMTP_URL, SMS codes always (no SMS provider exists yet). */
  mailDir: string;
  smsDir: string;
};

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = configSchema.safeParse(env);
  const problems = parsed.success
    ? []
    : parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
  problems.push(...crossCheck(env));
  // One line a variable: production's rule only for a value the schema did not refuse already.
  const named = new Set(problems.map((problem) => /^[A-Z_]+/.exec(problem)?.[0]));
  problems.push(...productionCheck(env).filter((problem) => !named.has(/^[A-Z_]+/.exec(problem)?.[0])));
  if (parsed.success && parsed.data.OPS_PORT === parsed.data.PORT && parsed.data.PORT !== 0) {
    problems.push('OPS_PORT: must differ from PORT (the operations endpoints have a port of their own)');
  }
  if (!parsed.success || problems.length > 0) throw new ConfigError(problems);
  const {
    DEMO_PROCESSOR,
    STRIPE_SECRET_KEY: _secretKey,
    STRIPE_PUBLISHABLE_KEY: _publishableKey,
    STRIPE_WEBHOOK_SECRET: _webhookSecret,
    STRIPE_API_URL: _apiUrl,
    STRIPE_PLATFORM_FEE_PERCENT: _platformFee,
    STRIPE_CONNECT_WEBHOOK_SECRET: _connectSecret,
    ...settings
  } = parsed.data;
  const stripe = stripeConfig(parsed.data);
  const demoMode = stripe?.live !== true;
  return {
    ...settings,
    stripe,
    demoMode,
    demoProcessor:
      DEMO_PROCESSOR === undefined ? demoMode && settings.NODE_ENV !== 'production' : DEMO_PROCESSOR === 'true',
    donationWebhookSecretFile: path.resolve(parsed.data.DATA_DIR, 'donation-webhook-secret'),
    databaseFile: eventStoreFile(parsed.data.DATA_DIR),
    credentialsFile: path.resolve(parsed.data.DATA_DIR, 'credentials.sqlite'),
    readModelsFile: path.resolve(parsed.data.DATA_DIR, 'read-models.sqlite'),
    generatedSecretFile: path.resolve(parsed.data.DATA_DIR, 'auth-secret'),
    lookupKeySecretFile: path.resolve(parsed.data.DATA_DIR, 'lookup-key-secret'),
    erasureJournalFile: path.resolve(settings.ERASURE_JOURNAL ?? path.join(parsed.data.DATA_DIR, 'erasures.jsonl')),
    mailDir: path.resolve(parsed.data.DATA_DIR, 'mail'),
    smsDir: path.resolve(parsed.data.DATA_DIR, 'sms'),
  };
}

/** For a process's entry point: the configuration, or each problem on stderr and exit code 2. */
export function loadConfigOrExit(env: NodeJS.ProcessEnv = process.env): Config {
  return loadOrExit(loadConfig, env);
}
