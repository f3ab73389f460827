import { createInMemoryEventStore, type EventStore, fundraisersProjector } from '@qrshirt/core';
import { describe, expect, it } from 'vitest';
import { WAIT_MS } from '@qrshirt/test-support';
import { createFirstPending } from '../src/pending-events';
import { createProjectionRunner } from '../src/runner';
import { createMemoryReadModelStore } from '../src/store/memory-read-model-store';
import { createRecordingLog } from './support/recording-log';

/** An in-memory log that notes where each read of it starts. */
function watchedEventStore() {
  const inner = createInMemoryEventStore();
  const searchedAfter: (number | undefined)[] = [];
  const eventStore: EventStore = {
    ...inner,
    readAll(options) {
      searchedAfter.push(options?.after);
      return inner.readAll(options);
    },
  };
  const view = (count: number) =>
    eventStore.appendToStream(
      'views-1',
      Array.from({ length: count }, () => ({ type: 'PageViewed', data: {} })),
    );
  return { eventStore, searchedAfter, view };
}

describe('the first event a projection has not handled', () => {
  it('is searched for only after the stretch already found free of its types', async () => {
    const { eventStore, searchedAfter, view } = watchedEventStore();
    await eventStore.appendToStream('fundraiser-f1', [{ type: 'FundraiserCreated', data: {} }]);
    await view(5);
    const firstPending = createFirstPending(eventStore);
    const types = ['FundraiserCreated'];

    // Handled up to position 1; the views after it are not its types.
    expect(await firstPending('fundraisers', types, 1)).toBeUndefined();
    await view(2);
    expect(await firstPending('fundraisers', types, 1)).toBeUndefined();
    await eventStore.appendToStream('fundraiser-f2', [{ type: 'FundraiserCreated', data: {} }]);
    expect((await firstPending('fundraisers', types, 1))?.globalPosition).toBe(9);
    expect(searchedAfter).toEqual([1, 6, 8]);

    // A checkpoint moved back (a rebuilt version) is searched from again.
    expect((await firstPending('fundraisers', types, null))?.globalPosition).toBe(1);
  });

  it('lets a waiting runner ask "caught up?" without searching the same stretch of the log again', async () => {
    const { eventStore, searchedAfter, view } = watchedEventStore();
    await eventStore.appendToStream('fundraiser-f1', [
      { type: 'FundraiserCreated', data: { fundraiserId: 'f1', name: 'Run', charityId: 'c1', shirtId: 's1' } },
    ]);
    const runner = createProjectionRunner({
      eventStore,
      store: createMemoryReadModelStore(),
      projector: fundraisersProjector,
      log: createRecordingLog().log,
    });
    runner.start();
    try {
      await runner.waitUntilCaughtUp(WAIT_MS);
      await view(50);
      searchedAfter.length = 0;
      expect(await runner.caughtUp()).toBe(true);
      expect(await runner.caughtUp()).toBe(true);
      expect(searchedAfter).toEqual([1, 51]);
    } finally {
      await runner.stop();
    }
  });
});
