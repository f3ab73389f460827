import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { ConcurrencyError } from '@qrshirt/core';
import { createSqliteEventStore } from '@qrshirt/sqlite';
import { instrumentEventStore } from '@qrshirt/runtime';

const count = (metrics: string, series: string) =>
  Number(new RegExp(`^${series} (\\S+)$`, 'm').exec(metrics)?.[1] ?? Number.NaN);

describe('the instrumented event store', () => {
  it('times every append by outcome and records how many events each carried, changing nothing else', async () => {
    const registry = new Registry();
    const store = instrumentEventStore(createSqliteEventStore({ path: ':memory:' }), registry);
    const event = (n: number) => ({ type: 'Test', data: { n } });
    await store.appendToStream('s', [event(1), event(2), event(3)], { expectedRevision: 'no_stream' });
    await store.appendToStream('s', [event(4)], { expectedRevision: 2 });
    await expect(store.appendToStream('s', [event(5)], { expectedRevision: 0 })).rejects.toBeInstanceOf(
      ConcurrencyError,
    );
    expect((await store.readStream('s')).map((stored) => stored.data)).toEqual([
      { n: 1 },
      { n: 2 },
      { n: 3 },
      { n: 4 },
    ]);

    const metrics = await registry.metrics();
    expect(count(metrics, 'event_store_append_duration_seconds_count\\{outcome="ok"\\}')).toBe(2);
    expect(count(metrics, 'event_store_append_duration_seconds_count\\{outcome="conflict"\\}')).toBe(1);
    expect(count(metrics, 'event_store_append_batch_size_count')).toBe(3);
    expect(count(metrics, 'event_store_append_batch_size_sum')).toBe(5);
    expect(count(metrics, 'event_store_append_batch_size_bucket\\{le="1"\\}')).toBe(2);
    await store.close();
  });
});
