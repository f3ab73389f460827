import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect, it } from 'vitest';
import { countByStatus, countErrors, type LocalKafka, type ScanAnswer, scaled, waitFor } from '@qrshirt/test-support';
import { describeWithKafka } from '@qrshirt/test-support/vitest';
import { describeWithScanPipeline } from './support/scan-pipeline';

const SCANS_PER_SECOND = 400;
/** Far more than the load sends in its ~20 seconds: stop() ends it. */
const MAX_SCANS = 100_000;
const OUTAGE_MS = 5_000;
/** Answers to scans sent during the outage, and after the recovery, for either to mean something. */
const ENOUGH_ANSWERS = 100;
/** The gateway has recovered once this many scans in a row (a second of load) were accepted. */
const ACCEPTED_IN_A_ROW = SCANS_PER_SECOND;

const outages: { name: string; stopBroker: (broker: LocalKafka) => Promise<void> }[] = [
  { name: 'stopped', stopBroker: (broker) => broker.halt() },
  // Killed mid-request: a produce may be written without its answer ever reaching the gateway.
  { name: 'crashed (SIGKILL)', stopBroker: (broker) => broker.crash() },
];

describeWithKafka('scan ingestion while the Kafka broker is down', (kafka) => {
  if (!kafka.ownsBroker)
    console.warn('[kafka] broker-down tests skipped: they stop the broker, so they need their own, not KAFKA_BROKERS');

  for (const { name, stopBroker } of outages) {
    describeWithScanPipeline(kafka, `with Redis read models, the broker ${name}`, (startPipeline) => {
      it.skipIf(!kafka.ownsBroker)(
        `answers 503 while the broker is ${name}, never 202, and counts every acknowledged scan exactly once`,
        async () => {
          const broker = kafka.local!;
          const pipeline = await startPipeline(5);
          const ingestor = await pipeline.startIngestor();
          const load = pipeline.startLoad({ total: MAX_SCANS, ratePerSecond: SCANS_PER_SECOND });

          await sleep(4_000);
          // Same data, same ports: the gateway and the ingestor must find it again by themselves.
          await stopBroker(broker);
          const stopped = performance.now();
          await sleep(OUTAGE_MS);
          await waitFor(
            'answers to scans sent during the outage',
            () => sentSince(load.answers, stopped).length,
            (answered) => answered > ENOUGH_ANSWERS,
          );
          const restartBegan = performance.now();
          await broker.restart();
          const restarted = performance.now();
          await waitFor(
            `the gateway to accept ${ACCEPTED_IN_A_ROW} scans in a row`,
            () => acceptedInARow(sentSince(load.answers, restarted)),
            (accepted) => accepted >= ACCEPTED_IN_A_ROW,
            { timeoutMs: scaled(60_000) },
          );
          const recoveredAt = performance.now();
          await waitFor(
            'answers to scans sent after the recovery',
            () => sentSince(load.answers, recoveredAt).length,
            (answered) => answered > ENOUGH_ANSWERS,
          );
          await load.stop();

          const drained = await pipeline.drain(load.answers);
          // Sent once the broker was gone and answered before it was started again: no broker
          // ever saw these, so a 202 among them would be a scan acknowledged but never stored.
          const duringOutage = load.answers.filter(
            (answer) => answer.sentAt >= stopped && answer.answeredAt <= restartBegan,
          );
          const recovered = sentSince(load.answers, recoveredAt);
          const events = drained.tallies.reduce((sum, row) => sum + row.recorded, 0);
          console.log(
            `[broker ${name}] all answers ${summary(load.answers)}; during the outage ${summary(duringOutage)}; ` +
              `broker back after ${Math.round(restarted - restartBegan)} ms; gateway recovered ${Math.round(recoveredAt - restarted)} ms later; ` +
              `after that ${summary(recovered)}; ` +
              `${events} ScanRecorded events; ${drained.settled ? 'drained' : 'NOT drained'} in ${Math.round(drained.waitedMs)} ms`,
          );
          // What the ingestor said, for whoever has to find out why it did not catch up.
          if (!drained.settled)
            console.log(
              ingestor.logs
                .slice(-40)
                .map((line) => JSON.stringify(line))
                .join('\n'),
            );

          expect(duringOutage.length).toBeGreaterThan(ENOUGH_ANSWERS);
          expect(countByStatus(duringOutage)).toEqual({ 503: duringOutage.length });
          // Scanning works again once the broker is back, without restarting the gateway, and
          // once it does, it goes on working.
          expect(recovered.length).toBeGreaterThan(ENOUGH_ANSWERS);
          expect(countByStatus(recovered)).toEqual({ 202: recovered.length });
          // A 503 whose produce reached the broker anyway may be ingested: not acknowledged, not lost.
          expect(drained.tallies).toEqual(
            drained.tallies.map((row) => ({
              fundraiserId: row.fundraiserId,
              accepted: row.accepted,
              recorded: Math.max(row.recorded, row.accepted),
              projected: row.recorded,
              duplicates: 0,
              missing: 0,
            })),
          );
          expect(drained.settled).toBe(true);
        },
        scaled(240_000),
      );
    });
  }
});

/** The answers to the scans sent since `since`, in the order they were sent. */
function sentSince(answers: readonly ScanAnswer[], since: number): ScanAnswer[] {
  return answers.filter((answer) => answer.sentAt >= since).sort((a, b) => a.sentAt - b.sentAt);
}

/** How many of the last scans sent were all accepted. */
function acceptedInARow(answers: readonly ScanAnswer[]): number {
  const refused = answers.findLastIndex((answer) => answer.status !== 202);
  return answers.length - 1 - refused;
}

function summary(answers: readonly ScanAnswer[]): string {
  return `${JSON.stringify(countByStatus(answers))} ${JSON.stringify(countErrors(answers))}`;
}
