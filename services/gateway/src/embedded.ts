import type { Config } from './config';
import { buildFeatures } from './root/features';
import { openInfrastructure, type ProcessOverrides } from './root/infrastructure';
import { type EmbeddedProcess, startLifecycle } from './root/lifecycle';

export type { EmbeddedProcess } from './root/lifecycle';

/**
 * The composition root of the embedded process: gateway, scan batcher and projectors in one
 * process, on the SQLite store (or EventStoreDB) and in-process read models (or Redis). With
 * KAFKA_BROKERS, scans and analytics go to Kafka instead and an ingestor process appends them.
 * Three rooms, in this order: the stores and backends the config names (root/infrastructure.ts),
 * the features on them and the ports between them (root/features.ts), then starting, serving and
 * closing (root/lifecycle.ts).
 */
export async function createEmbeddedProcess(
  config: Config,
  overrides: ProcessOverrides = {},
): Promise<EmbeddedProcess> {
  const infrastructure = await openInfrastructure(config, overrides);
  const features = await buildFeatures(config, infrastructure);
  return startLifecycle(config, infrastructure, features, overrides);
}
