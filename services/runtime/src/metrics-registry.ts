import { collectDefaultMetrics, Registry } from 'prom-client';

/** A process's own registry (never prom-client's global one, so tests can run several in one process). */
export function createMetricsRegistry(processName: string): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ service: processName });
  collectDefaultMetrics({ register: registry });
  return registry;
}
