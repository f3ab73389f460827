import path from 'node:path';
import { parseEnv } from '@qrshirt/core';
import { z } from 'zod';

/** The projector process's environment (`npm run start:projector`). */
export const projectorConfigSchema = z.object({
  /** The read models it maintains; the gateways read them there (PROJECTIONS=off). */
  REDIS_URL: z.url({ error: 'expected redis://host:port' }),
  DATA_DIR: z.string().min(1).default('./data'),
  EVENTSTORE_URL: z
    .string()
    .trim()
    .transform((value) => value || undefined)
    .pipe(z.url('expected esdb://host:port?tls=false').optional())
    .optional(),
  /** Where GET /healthz, /readyz and /metrics are served. */
  METRICS_PORT: z.coerce.number({ error: 'expected a port number' }).int().min(0).max(65535).default(9102),
  METRICS_HOST: z.string().min(1).default('0.0.0.0'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export type ProjectorConfig = z.infer<typeof projectorConfigSchema> & { databaseFile: string };

export function loadProjectorConfig(env: NodeJS.ProcessEnv = process.env): ProjectorConfig {
  const config = parseEnv(projectorConfigSchema, env);
  return { ...config, databaseFile: path.resolve(config.DATA_DIR, 'events.sqlite') };
}
