import { createInMemoryEventStore, type EventStore, type PositionUnit, fundraisersProjector } from '@qrshirt/core';
import { describe, expect, it } from 'vitest';
import { createProjectionMonitor } from '../src/projection-monitor';
import { createRebuildJobs } from '../src/rebuild-jobs';
import { createMemoryReadModelStore } from '../src/store/memory-read-model-store';
import { createRecordingLog } from './support/recording-log';

const clock = () => new Date('2025-03-10T08:00:00.000Z');

/** A projection that has handled nothing yet, over a log holding three events of its types. */
async function statusBehindThreeEvents(positionUnit: PositionUnit) {
  const eventStore: EventStore = { ...createInMemoryEventStore(), positionUnit };
  for (let n = 0; n < 3; n++) {
    await eventStore.appendToStream(`fundraiser-f${n}`, [{ type: 'FundraiserCreated', data: {} }]);
  }
  const store = createMemoryReadModelStore();
  const monitor = createProjectionMonitor({
    eventStore,
    store,
    projectors: [fundraisersProjector],
    runners: new Map(),
    rebuilds: createRebuildJobs({ eventStore, store, log: createRecordingLog().log, clock }),
    clock,
  });
  return monitor.status();
}

describe('projection monitor', () => {
  it('counts the events a projection is behind where positions count events', async () => {
    const status = await statusBehindThreeEvents('events');
    expect(status.positionUnit).toBe('events');
    expect(status.projections[0]).toMatchObject({ state: 'catching-up', lagEvents: 3 });
  });

  it('says it cannot count them where positions are byte offsets, and still shows the projection behind', async () => {
    const status = await statusBehindThreeEvents('bytes');
    expect(status.positionUnit).toBe('bytes');
    expect(status.projections[0]).toMatchObject({ state: 'catching-up', lagEvents: null });
  });
});
