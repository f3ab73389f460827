import path from 'node:path';
import { kafkaBrokerList, parseEnv } from '@qrshirt/core';
import { z } from 'zod';

/** The ingestor process's environment (`npm run start:ingestor`). */
export const ingestorConfigSchema = z.object({
  KAFKA_BROKERS: kafkaBrokerList,
  KAFKA_PARTITIONS: z.coerce.number({ error: 'expected a number' }).int().min(1).max(1000).default(6),
  INGESTOR_GROUP_ID: z.string().min(1).default('ingestor'),
  DATA_DIR: z.string().min(1).default('./data'),
  EVENTSTORE_URL: z
    .string()
    .trim()
    .transform((value) => value || undefined)
    .pipe(z.url('expected esdb://host:port?tls=false').optional())
    .optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Milliseconds without heartbeats before the group gives this member's partitions away. */
  KAFKA_SESSION_TIMEOUT_MS: z.coerce.number({ error: 'expected milliseconds' }).int().min(1000).default(10_000),
  /** Where GET /healthz, /readyz and /metrics are served. */
  METRICS_PORT: z.coerce.number({ error: 'expected a port number' }).int().min(0).max(65535).default(9101),
  METRICS_HOST: z.string().min(1).default('0.0.0.0'),
});

export type IngestorConfig = z.infer<typeof ingestorConfigSchema> & { databaseFile: string };

export function loadIngestorConfig(env: NodeJS.ProcessEnv = process.env): IngestorConfig {
  const config = parseEnv(ingestorConfigSchema, env);
  return { ...config, databaseFile: path.resolve(config.DATA_DIR, 'events.sqlite') };
}
