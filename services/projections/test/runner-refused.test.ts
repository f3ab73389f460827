import {
  createInMemoryEventStore,
  fundraisersProjector,
  SubscriptionRefusedError,
  type EventStore,
} from '@qrshirt/core';
import { describe, expect, it } from 'vitest';
import { createProjectionRunner, projectionsRunning } from '../src/runner';
import { createMemoryReadModelStore } from '../src/store/memory-read-model-store';
import { createRecordingLog } from './support/recording-log';
import { until } from './support/until';

describe('a projection the event store refuses for good', () => {
  it('stops at once instead of retrying, and readiness and the log name why', async () => {
    const real = createInMemoryEventStore();
    let subscriptions = 0;
    const refusing: EventStore = {
      ...real,
      subscribe() {
        subscriptions++;
        const done = Promise.reject(
          new SubscriptionRefusedError('EventStoreDB denied this subscription access to $all'),
        );
        return { done, stop: async () => {} };
      },
    };
    const recorded = createRecordingLog();
    const runner = createProjectionRunner({
      eventStore: refusing,
      store: createMemoryReadModelStore(),
      projector: fundraisersProjector,
      log: recorded.log,
      retryDelayMs: 5,
    });
    await expect(projectionsRunning([runner])).resolves.toBeUndefined();
    runner.start();
    // It marks itself stopped as its loop returns: from then on it can subscribe no more.
    await until(() => !runner.status().running, 'the runner stopped');

    expect(subscriptions).toBe(1);
    expect(runner.status()).toMatchObject({ running: false, lastError: expect.stringMatching(/denied/) });
    await expect(projectionsRunning([runner])).rejects.toThrow(
      `projection stopped: ${fundraisersProjector.name}: EventStoreDB denied this subscription access to $all`,
    );
    expect(recorded.errors.map((entry) => entry.message)).toEqual(['projection stopped: the event store refused it']);
    await runner.stop();
  });
});
