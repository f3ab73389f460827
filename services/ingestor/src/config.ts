import path from 'node:path';
import { kafkaBrokerList } from '@qrshirt/core';
import { z } from 'zod';

const configSchema = z.object({
  KAFKA_BROKERS: kafkaBrokerList,
  KAFKA_PARTITIONS: z.coerce.number({ error: 'expected a number' }).int().min(1).max(1000).default(6),
  INGESTOR_GROUP_ID: z.string().min(1).default('ingestor'),
  DATA_DIR: z.string().min(1).default('./data'),
  EVENTSTORE_URL: z.url('expected esdb://host:port?tls=false').optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Milliseconds without heartbeats before the group gives this member's partitions away. */
  KAFKA_SESSION_TIMEOUT_MS: z.coerce.number({ error: 'expected milliseconds' }).int().min(1000).default(10_000),
});

export type IngestorConfig = z.infer<typeof configSchema> & { databaseFile: string };

/** The configuration, or each problem on stderr and exit code 2. */
export function loadIngestorConfigOrExit(env: NodeJS.ProcessEnv = process.env): IngestorConfig {
  const parsed = configSchema.safeParse(env);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) console.error(`${issue.path.join('.')}: ${issue.message}`);
    process.exit(2);
  }
  return { ...parsed.data, databaseFile: path.resolve(parsed.data.DATA_DIR, 'events.sqlite') };
}
