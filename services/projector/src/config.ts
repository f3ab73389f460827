import { eventStoreEnv, eventStoreFile, logDir, logLevel, opsServerEnv, parseEnv } from '@qrshirt/runtime';
import { z } from 'zod';

/** The projector process's environment (`npm run start:projector`). */
export const projectorConfigSchema = z.object({
  /** The read models it maintains; the gateways read them there (PROJECTIONS=off). */
  REDIS_URL: z.url({ error: 'expected redis://host:port' }),
  ...eventStoreEnv,
  ...opsServerEnv(9102),
  LOG_LEVEL: logLevel,
  LOG_DIR: logDir,
});

type ProjectorConfig = z.infer<typeof projectorConfigSchema> & { databaseFile: string };

export function loadProjectorConfig(env: NodeJS.ProcessEnv = process.env): ProjectorConfig {
  const config = parseEnv(projectorConfigSchema, env);
  return { ...config, databaseFile: eventStoreFile(config.DATA_DIR) };
}
