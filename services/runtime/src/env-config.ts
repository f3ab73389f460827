import { ANONYMOUS_EVENTS_PER_MINUTE } from '@qrshirt/core';
import { z } from 'zod';

/** One readable line per wrong or missing variable; entry points print them and exit with code 2. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('\n'));
    this.name = 'ConfigError';
  }
}

/** The environment read through `schema`, or a ConfigError naming every variable that is wrong. */
export function parseEnv<Schema extends z.ZodType>(schema: Schema, env: NodeJS.ProcessEnv): z.output<Schema> {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`));
  }
  return parsed.data;
}

/**
 * For a process's entry point: `load(env)`, or each problem on stderr and exit code 2. An operator
 * reads a misconfiguration, not a stack trace.
 */
export function loadOrExit<Config>(
  load: (env: NodeJS.ProcessEnv) => Config,
  env: NodeJS.ProcessEnv = process.env,
): Config {
  try {
    return load(env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    for (const problem of error.problems) console.error(problem);
    process.exit(2);
  }
}

/** An optional URL variable: unset or blank means absent, anything else must parse. */
export const optionalUrl = (expected: string) =>
  z
    .string()
    .trim()
    .transform((value) => value || undefined)
    .pipe(z.url(`expected ${expected}`).optional())
    .optional();

export const logLevel = z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info');

/** LOG_DIR: unset or blank logs to stdout; a folder gets daily log files kept LOG_RETENTION_DAYS. */
export const logDir = z
  .string()
  .trim()
  .transform((value) => value || undefined)
  .optional();

/** Where every process finds the event store: EventStoreDB when EVENTSTORE_URL is set, else the SQLite file. */
export const eventStoreEnv = {
  DATA_DIR: z.string().min(1).default('./data'),
  EVENTSTORE_URL: optionalUrl('esdb://host:port?tls=false'),
  /** The server's `MaxAppendSize` and `MaxAppendEventSize`: larger appends are refused before sending. */
  EVENTSTORE_MAX_APPEND_BYTES: z.coerce.number({ error: 'expected a number of bytes' }).int().positive().optional(),
  EVENTSTORE_MAX_EVENT_BYTES: z.coerce.number({ error: 'expected a number of bytes' }).int().positive().optional(),
  /** The server was started with KurrentDB 25.1's secondary indexes: reads by one type use them. */
  EVENTSTORE_SECONDARY_INDEXES: z.enum(['on', 'off'], { error: 'expected on or off' }).default('off'),
};

/** What a writer of scans and analytics (the embedded gateway, an ingestor) stores one by one. */
export const anonymousLogEnv = {
  /** Scans and analytics events stored one by one per minute; past it tallied and sampled (docs/api.md). */
  ANONYMOUS_EVENTS_PER_MINUTE: z.coerce
    .number({ error: 'expected a number of events' })
    .int('expected a whole number of events')
    .min(1, 'expected at least 1 event')
    .default(ANONYMOUS_EVENTS_PER_MINUTE),
};

/**
 * Where a process serves GET /readyz and /metrics (and /healthz): a port of its own, on loopback
 * unless told otherwise, so that neither its dependencies' state nor its figures reach whoever
 * reaches the product. 0 picks a free port, which the process logs.
 */
export const opsServerEnv = (defaultPort: number) => ({
  OPS_PORT: z.coerce.number({ error: 'expected a port number' }).int().min(0).max(65535).default(defaultPort),
  OPS_HOST: z.string().trim().min(1).default('127.0.0.1'),
});
