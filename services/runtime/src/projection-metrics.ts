import type { EventStore, Projector } from '@qrshirt/core';
import { Gauge, type Registry } from 'prom-client';
import type { ProjectionRunner } from '@qrshirt/projections';

export interface RunningProjection {
  projector: Projector;
  runner: ProjectionRunner;
}

interface Lag {
  /** Undefined where counting would mean reading the events. */
  events: number | undefined;
  seconds: number;
}

/** Events beyond this many are not counted: the gauge then reads this figure, already an alarm. */
const COUNT_LIMIT = 10_000;

/**
 * Projection lag per projector, measured at each scrape: the events of its types stored beyond
 * its checkpoint, and how long the oldest of them has waited. A projector's checkpoint only moves
 * when an event of its types arrives, so `head - checkpoint` would show the catalogue lagging
 * behind every scan; counting its own types does not. To keep a scrape cheap, a stretch of the log
 * found free of its types is remembered and not searched again.
 */
export function registerProjectionMetrics(
  registry: Registry,
  options: { eventStore: EventStore; projections: readonly RunningProjection[] },
): void {
  const { eventStore, projections } = options;
  /** Per projection: no event of its types lies in (checkpoint, clearTo] for any checkpoint >= `since`. */
  const clear = new Map<string, { since: number; clearTo: number }>();

  async function lagOf({ projector, runner }: RunningProjection): Promise<Lag> {
    const checkpoint = runner.status().checkpoint ?? 0;
    const known = clear.get(projector.name);
    // A checkpoint that moved back (a blue/green switch) invalidates what was learnt.
    const from = known && checkpoint >= known.since ? Math.max(checkpoint, known.clearTo) : checkpoint;
    const head = await eventStore.headPosition();
    // A store that can count cheaply only by reading (EventStoreDB, positions in bytes) reads the
    // oldest pending event alone: its lag in events is left unmeasured, as the admin API leaves it.
    const counting = eventStore.positionUnit === 'events';
    const pending = await eventStore.readAll({
      after: from,
      eventTypes: projector.eventTypes,
      maxCount: counting ? COUNT_LIMIT : 1,
    });
    const oldest = pending[0];
    if (!oldest) clear.set(projector.name, { since: checkpoint, clearTo: Math.max(from, head) });
    return {
      events: counting ? pending.length : undefined,
      seconds: oldest ? Math.max(0, (Date.now() - oldest.recordedAt.getTime()) / 1000) : 0,
    };
  }

  // Both gauges are collected at once by a scrape: they share one measurement.
  let measuring: Promise<Map<string, Lag>> | undefined;
  const measure = () => {
    measuring ??= (async () => {
      const lags = new Map<string, Lag>();
      for (const projection of projections) lags.set(projection.projector.name, await lagOf(projection));
      return lags;
    })().finally(() => {
      measuring = undefined;
    });
    return measuring;
  };

  new Gauge({
    name: 'projection_lag_events',
    help: `Events of a projection's types stored beyond its checkpoint (counted up to ${COUNT_LIMIT}; not on EventStoreDB)`,
    labelNames: ['projection'] as const,
    registers: [registry],
    async collect() {
      for (const [projection, lag] of await measure())
        if (lag.events !== undefined) this.set({ projection }, lag.events);
    },
  });
  new Gauge({
    name: 'projection_lag_seconds',
    help: 'How long the oldest event a projection has not handled yet has been stored; 0 when caught up',
    labelNames: ['projection'] as const,
    registers: [registry],
    async collect() {
      for (const [projection, lag] of await measure()) this.set({ projection }, lag.seconds);
    },
  });
  new Gauge({
    name: 'projection_checkpoint',
    help: 'Global position of the last event a projection handled',
    labelNames: ['projection'] as const,
    registers: [registry],
    collect() {
      for (const { projector, runner } of projections)
        this.set({ projection: projector.name }, runner.status().checkpoint ?? 0);
    },
  });
}
