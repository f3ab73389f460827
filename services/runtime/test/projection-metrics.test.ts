import { createInMemoryEventStore, fundraisersProjector, type EventStore, type ReadAllOptions } from '@qrshirt/core';
import type { ProjectionRunner } from '@qrshirt/projections';
import { describe, expect, it } from 'vitest';
import { createMetricsRegistry } from '../src/metrics-registry';
import { registerProjectionMetrics } from '../src/projection-metrics';

async function lagAfterScrape(positionUnit: EventStore['positionUnit']) {
  const real = createInMemoryEventStore();
  for (let i = 0; i < 5; i++) {
    await real.appendToStream(`fundraiser-${i}`, [{ type: 'FundraiserCreated', data: { n: i } }]);
  }
  const reads: ReadAllOptions[] = [];
  const eventStore: EventStore = {
    ...real,
    positionUnit,
    readAll: (options = {}) => {
      reads.push(options);
      return real.readAll(options);
    },
  };
  const runner = { status: () => ({ checkpoint: 0 }) } as unknown as ProjectionRunner;
  const registry = createMetricsRegistry('test');
  registerProjectionMetrics(registry, { eventStore, projections: [{ projector: fundraisersProjector, runner }] });
  const metrics = await registry.getMetricsAsJSON();
  const value = (name: string) => metrics.find((metric) => metric.name === name)?.values[0]?.value;
  return { reads, events: value('projection_lag_events'), seconds: value('projection_lag_seconds') };
}

describe('projection lag metrics', () => {
  it('count the pending events where positions number them', async () => {
    const { events, reads } = await lagAfterScrape('events');
    expect(events).toBe(5);
    expect(reads.map((read) => read.maxCount)).toEqual([10_000]);
  });

  it('read only the oldest pending event where counting means reading them all (EventStoreDB)', async () => {
    const { events, seconds, reads } = await lagAfterScrape('bytes');
    expect(events).toBeUndefined();
    expect(seconds).toBeGreaterThanOrEqual(0);
    expect(reads.map((read) => read.maxCount)).toEqual([1]);
  });
});
