import path from 'node:path';
import { kafkaBrokerList } from '@qrshirt/core';
import { z } from 'zod';

const optionalUrl = (expected: string) =>
  z
    .string()
    .trim()
    .transform((value) => value || undefined)
    .pipe(z.url(`expected ${expected}`).optional())
    .optional();

const configSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number({ error: 'expected a port number' }).int().min(0).max(65535).default(8080),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  REDIS_URL: optionalUrl('redis://host:port'),
  EVENTSTORE_URL: optionalUrl('esdb://host:port?tls=false'),
  /** Scans and analytics go through Kafka (an ingestor process appends them); else in process. */
  KAFKA_BROKERS: kafkaBrokerList.optional(),
  KAFKA_PARTITIONS: z.coerce.number({ error: 'expected a number' }).int().min(1).max(1000).default(6),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Largest JSON body accepted; larger ones get 413. */
  MAX_BODY_BYTES: z.coerce.number().int().positive().default(64 * 1024),
  SEED_CATALOG: z
    .enum(['true', 'false'], { error: 'expected true or false' })
    .default('true')
    .transform((value) => value === 'true'),
});

export type Config = z.infer<typeof configSchema> & { databaseFile: string };

/** One readable line per wrong or missing variable; main prints them and exits with code 2. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('\n'));
    this.name = 'ConfigError';
  }
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = configSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`));
  }
  return { ...parsed.data, databaseFile: path.resolve(parsed.data.DATA_DIR, 'events.sqlite') };
}

/** For a process's entry point: the configuration, or each problem on stderr and exit code 2. */
export function loadConfigOrExit(env: NodeJS.ProcessEnv = process.env): Config {
  try {
    return loadConfig(env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    for (const problem of error.problems) console.error(problem);
    process.exit(2);
  }
}
