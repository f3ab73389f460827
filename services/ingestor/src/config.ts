import {
  anonymousLogEnv,
  diskSpaceEnv,
  eventStoreEnv,
  eventStoreFile,
  logDir,
  logLevel,
  opsServerEnv,
  parseEnv,
} from '@qrshirt/runtime';
import { kafkaBrokerList, kafkaTopicEnv } from '@qrshirt/kafka';
import { z } from 'zod';

/** The ingestor process's environment (`npm run start:ingestor`). */
export const ingestorConfigSchema = z.object({
  KAFKA_BROKERS: kafkaBrokerList,
  ...kafkaTopicEnv,
  INGESTOR_GROUP_ID: z.string().min(1).default('ingestor'),
  ...eventStoreEnv,
  ...diskSpaceEnv,
  ...anonymousLogEnv,
  LOG_LEVEL: logLevel,
  LOG_DIR: logDir,
  /** Milliseconds without heartbeats before the group gives this member's partitions away. */
  KAFKA_SESSION_TIMEOUT_MS: z.coerce.number({ error: 'expected milliseconds' }).int().min(1000).default(10_000),
  ...opsServerEnv(9101),
});

export type IngestorConfig = z.infer<typeof ingestorConfigSchema> & { databaseFile: string };

export function loadIngestorConfig(env: NodeJS.ProcessEnv = process.env): IngestorConfig {
  const config = parseEnv(ingestorConfigSchema, env);
  return { ...config, databaseFile: eventStoreFile(config.DATA_DIR) };
}
