import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { createMicroBatcher, IngestionUnavailableError, type Waiting } from '@qrshirt/core';

/**
 * How much slower than a calm machine this one may be: TEST_TIME_SCALE, as @qrshirt/test-support
 * reads it (this package does not depend on it).
 */
const TIME_SCALE = Math.max(1, Number(process.env.TEST_TIME_SCALE) || 1);

describe('the micro-batcher with a deadline', () => {
  it('refuses what waited its deadline behind a stuck write, and never writes it', async () => {
    const written: string[][] = [];
    let release: () => void = () => {};
    const stuck = new Promise<void>((resolve) => (release = resolve));
    const batcher = createMicroBatcher<string>({
      async write(batch: Waiting<string>[]) {
        written.push(batch.map(({ item }) => item));
        await stuck;
        for (const waiting of batch) waiting.resolve();
      },
      maxBatch: 10,
      lingerMs: 0,
      maxPending: 100,
      deadlineMs: 200,
    });
    const first = batcher.enqueue(['first']);
    await new Promise((resolve) => setImmediate(resolve));
    const queuedAt = performance.now();
    const behind = await batcher.enqueue(['behind']).then(
      () => 'written',
      (error: unknown) => error,
    );
    const waitedMs = performance.now() - queuedAt;
    console.log(`[micro-batcher] refused after ${Math.round(waitedMs)} ms, its deadline 200 ms`);

    expect(behind).toBeInstanceOf(IngestionUnavailableError);
    // Not before its deadline; after it, as soon as a busy machine runs the timer.
    expect(waitedMs).toBeGreaterThanOrEqual(190);
    expect(waitedMs).toBeLessThan(1_000 * TIME_SCALE);
    release();
    await expect(first).resolves.toBeUndefined();
    await batcher.close();
    expect(written).toEqual([['first']]);
  });
});
