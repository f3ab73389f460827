import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { afterAll, expect, it } from 'vitest';
import { describeWithKafka } from '@qrshirt/test-support/vitest';
import { createKafkaIngestion } from '@qrshirt/kafka';
import { type Ingestion, IngestionUnavailableError } from '@qrshirt/core';

/**
 * kafkajs waits 30 s per request by default, three attempts in all: a scanner in front of a hung
 * broker would wait about a minute and a half. The bound here is far below that, far above a
 * normal answer.
 */
const HUNG_ANSWER_BOUND_MS = 15_000;
/**
 * Resumed, the broker first works through what piled up while it stood still (the abandoned
 * requests, its controller's timers) while the replacement producer connects again: on a loaded
 * machine the first scans after it resumes may still be refused (one CI run out of many). Scanners
 * get a 503 and retry; so does this test, until the bound.
 */
const RECOVERY_BOUND_MS = 30_000;
const RETRY_EVERY_MS = 250;

describeWithKafka('Kafka ingestion with a hung broker', (kafka) => {
  let ingestion: Ingestion | undefined;
  afterAll(async () => {
    kafka.local?.thaw();
    await ingestion?.close();
  });

  const scan = () => ({ scanId: randomUUID(), fundraiserId: 'hung-broker-fundraiser', at: new Date().toISOString() });

  it.skipIf(!kafka.ownsBroker)(
    'refuses a scan within seconds while the broker hangs, and accepts scans once it answers again',
    async () => {
      const broker = kafka.local!;
      ingestion = await createKafkaIngestion({ brokers: kafka.brokers.split(','), partitions: 1, producers: 1 });
      await ingestion.recordScan(scan());

      broker.freeze();
      const sent = performance.now();
      const refused = await ingestion.recordScan(scan()).then(
        () => undefined,
        (error: unknown) => error,
      );
      const waitedMs = performance.now() - sent;
      broker.thaw();

      expect(refused).toBeInstanceOf(IngestionUnavailableError);
      console.info(`[kafka] hung broker: scan refused after ${Math.round(waitedMs)} ms`);
      expect(waitedMs).toBeLessThan(HUNG_ANSWER_BOUND_MS);

      const thawed = performance.now();
      let refusals = 0;
      for (;;) {
        const outcome = await ingestion.recordScan(scan()).then(
          () => 'accepted' as const,
          (error: unknown) => error,
        );
        if (outcome === 'accepted') break;
        expect(outcome).toBeInstanceOf(IngestionUnavailableError);
        refusals += 1;
        expect(performance.now() - thawed).toBeLessThan(RECOVERY_BOUND_MS);
        await new Promise((resolve) => setTimeout(resolve, RETRY_EVERY_MS));
      }
      console.info(
        `[kafka] hung broker: scans accepted ${Math.round(performance.now() - thawed)} ms after it resumed (${refusals} refused meanwhile)`,
      );
    },
    90_000,
  );
});
