import { Histogram, type Registry } from 'prom-client';
import { ConcurrencyError, type EventStore } from '@qrshirt/core';

/**
 * The event store with its appends measured: latency by outcome (`ok`, `conflict` for a failed
 * expected-revision check, `error`) and how many events each append carried, which shows whether
 * the batchers batch. Reads are not measured: the projections' lag says more about them.
 */
export function instrumentEventStore(store: EventStore, registry: Registry): EventStore {
  const latency = new Histogram({
    name: 'event_store_append_duration_seconds',
    help: 'Time to append one batch of events to the event store',
    labelNames: ['outcome'] as const,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  const batchSize = new Histogram({
    name: 'event_store_append_batch_size',
    help: 'Events per append to the event store',
    buckets: [1, 2, 5, 10, 25, 50, 100, 250, 500, 1000, 2000],
    registers: [registry],
  });
  return {
    ...store,
    async appendToStream(streamName, events, options) {
      const startedAt = process.hrtime.bigint();
      let outcome = 'ok';
      try {
        return await store.appendToStream(streamName, events, options);
      } catch (error) {
        outcome = error instanceof ConcurrencyError ? 'conflict' : 'error';
        throw error;
      } finally {
        latency.observe({ outcome }, Number(process.hrtime.bigint() - startedAt) / 1e9);
        batchSize.observe(events.length);
      }
    },
  };
}
