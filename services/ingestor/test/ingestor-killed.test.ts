import { setTimeout as sleep } from 'node:timers/promises';
import type { EventStore } from '@qrshirt/core';
import { expect, it } from 'vitest';
import { countByStatus, countErrors, scaled } from '@qrshirt/test-support';
import { describeWithKafka } from '@qrshirt/test-support/vitest';
import { describeWithScanPipeline, eachAcceptedOnce } from './support/scan-pipeline';

const SCANS = 30_000;
const KILLS = 6;
/** Paced so the load spans every kill: each restart waits out the dead member's session. */
const SCANS_PER_SECOND = 600;

describeWithKafka('scan ingestion while the ingestor process is killed', (kafka) => {
  describeWithScanPipeline(kafka, 'with Redis read models', (startPipeline) => {
    it(
      'counts every acknowledged scan exactly once, through repeated SIGKILLs of the ingestor',
      async () => {
        const pipeline = await startPipeline(5);
        let ingestor = await pipeline.startIngestor();
        const load = pipeline.startLoad({ total: SCANS, ratePerSecond: SCANS_PER_SECOND });

        // A random moment after it (re)joined the group; two times in three, the first append after
        // that moment, before its offsets can be committed: the crash that makes Kafka redeliver
        // messages already in the event store.
        const answeredAtKill: number[] = [];
        for (let kill = 0; kill < KILLS; kill++) {
          await sleep(200 + Math.random() * 2_800);
          if (kill % 3 !== 0) await nextAppend(pipeline.store, scaled(5_000));
          answeredAtKill.push(load.answers.length);
          await ingestor.kill();
          ingestor = await pipeline.startIngestor();
        }
        await load.done;

        const drained = await pipeline.drain(load.answers);
        const statuses = countByStatus(load.answers);
        const events = drained.tallies.reduce((sum, row) => sum + row.recorded, 0);
        console.log(
          `[ingestor killed] answers ${JSON.stringify(statuses)} ${JSON.stringify(countErrors(load.answers))}; kills after ${answeredAtKill.join(', ')} answers; ` +
            `${events} ScanRecorded events; ${drained.settled ? 'drained' : 'NOT drained'} in ${Math.round(drained.waitedMs)} ms`,
        );

        expect(drained.tallies).toEqual(eachAcceptedOnce(drained.tallies));
        expect(drained.settled).toBe(true);
        // The broker and the gateway stayed up: every scan was acknowledged.
        expect(statuses).toEqual({ 202: SCANS });
      },
      // Only a hung run reaches it: 66 s on a calm machine, over 240 s on a slow one beside a CPU hog.
      scaled(480_000),
    );
  });
});

/**
 * Resolves as soon as the event store's head moves (at most `limitMs` later). It polls on every
 * turn of the event loop, not on a timer: the ingestor commits its offsets a millisecond or two
 * after an append.
 */
async function nextAppend(store: EventStore, limitMs: number): Promise<void> {
  const head = await store.headPosition();
  for (const deadline = Date.now() + limitMs; Date.now() < deadline;) {
    if ((await store.headPosition()) !== head) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
}
