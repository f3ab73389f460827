import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { afterAll, expect, it } from 'vitest';
import { scaled, waitFor } from '@qrshirt/test-support';
import { describeWithKafka } from '@qrshirt/test-support/vitest';
import { createKafkaIngestion, KAFKA_ANSWER_DEADLINE_MS } from '@qrshirt/kafka';
import { type Ingestion, IngestionUnavailableError } from '@qrshirt/core';

/**
 * kafkajs waits 30 s per request by default, three attempts in all: a scanner in front of a hung
 * broker would wait about a minute and a half. The ingestion refuses at its answer deadline; the
 * bound here leaves a busy machine a generous margin past it, and stays far below kafkajs' wait.
 */
const HUNG_ANSWER_BOUND_MS = KAFKA_ANSWER_DEADLINE_MS + scaled(7_000);
/**
 * Resumed, the broker first works through what piled up while it stood still (the abandoned
 * requests, its controller's timers) while the replacement producer connects again: on a loaded
 * machine the first scans after it resumes may still be refused. Scanners get a 503 and retry;
 * so does this test, this often, until one is accepted.
 */
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

      await broker.freeze();
      const sent = performance.now();
      const refused = await ingestion.recordScan(scan()).then(
        () => undefined,
        (error: unknown) => error,
      );
      const waitedMs = performance.now() - sent;
      broker.thaw();

      expect(refused, `answered after ${Math.round(waitedMs)} ms`).toBeInstanceOf(IngestionUnavailableError);
      console.info(`[kafka] hung broker: scan refused after ${Math.round(waitedMs)} ms`);
      expect(waitedMs).toBeLessThan(HUNG_ANSWER_BOUND_MS);

      const thawed = performance.now();
      let refusals = 0;
      await waitFor(
        'a scan accepted once the broker answers again',
        async () => {
          const outcome = await ingestion!.recordScan(scan()).then(
            () => 'accepted' as const,
            (error: unknown) => error,
          );
          if (outcome === 'accepted') return true;
          // Refused as unavailable, for the scanner to retry; anything else fails the wait.
          if (!(outcome instanceof IngestionUnavailableError)) throw outcome;
          refusals += 1;
          return false;
        },
        Boolean,
        { timeoutMs: scaled(60_000), intervalMs: RETRY_EVERY_MS },
      );
      console.info(
        `[kafka] hung broker: scans accepted ${Math.round(performance.now() - thawed)} ms after it resumed (${refusals} refused meanwhile)`,
      );
    },
  );
});
