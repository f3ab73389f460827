import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SCANS_TOPIC } from '@qrshirt/kafka';
import { SHUTDOWN_DEADLINE_MS } from '@qrshirt/runtime';
import { createSqliteEventStore } from '@qrshirt/sqlite';
import { Kafka, logLevel } from 'kafkajs';
import { afterAll, expect, it } from 'vitest';
import {
  as,
  countByStatus,
  createApiClient,
  createFundraiser,
  drain,
  groupCaughtUp,
  outputTail,
  type ExitStatus,
  type GatewayProcess,
  type LocalRedis,
  scaled,
  scanLedger,
  signUp,
  startGatewayProcess,
  startIngestorProcess,
  startProjectorProcess,
  startRedis,
  startScanLoad,
  waitFor,
  type WorkerProcess,
} from '@qrshirt/test-support';
import { describeWithKafka } from '@qrshirt/test-support/vitest';

const PARTITIONS = 3;
const FUNDRAISERS = 3;
/**
 * A process still stopping at SHUTDOWN_DEADLINE_MS exits anyway (code 1), before Docker's SIGKILL.
 * Seen from here, from the signal to the exit: that deadline, and the way of the signal and of the
 * exit, which a busy machine slows.
 */
const STOPPED_WITHIN_MS = SHUTDOWN_DEADLINE_MS + scaled(1_000);

describeWithKafka('the distributed processes stopped by SIGTERM under load', (kafka) => {
  let dataDir: string;
  let redis: LocalRedis | undefined;
  const running: { kill(): Promise<unknown> }[] = [];
  afterAll(async () => {
    await Promise.all(running.map((process) => process.kill()));
    await redis?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it(
    'each exits 0 within its shutdown deadline, offsets and checkpoints stored: every scan acknowledged is ingested and projected exactly once',
    async () => {
      dataDir = await mkdtemp(path.join(tmpdir(), 'qrshirt-distributed-sigterm-'));
      redis = await startRedis();
      const groupId = kafka.freshName();
      const env = {
        DATA_DIR: dataDir,
        KAFKA_BROKERS: kafka.brokers,
        KAFKA_PARTITIONS: String(PARTITIONS),
        REDIS_URL: redis.url,
      };
      const startGateway = async () => {
        const gateway = await startGatewayProcess({ ...env, PROJECTIONS: 'off', NODE_ENV: 'development' });
        running.push(gateway);
        return gateway;
      };
      const startWorkers = async (): Promise<[WorkerProcess, WorkerProcess]> => {
        const workers = await Promise.all([
          startIngestorProcess({ ...env, INGESTOR_GROUP_ID: groupId, KAFKA_SESSION_TIMEOUT_MS: '6000' }),
          startProjectorProcess(env),
        ]);
        running.push(...workers);
        return workers;
      };
      const timed = async (stop: () => Promise<ExitStatus>) => {
        const startedAt = Date.now();
        return { code: await stop(), ms: Date.now() - startedAt };
      };

      let gateway: GatewayProcess = await startGateway();
      let [ingestor, projector] = await startWorkers();
      let api = createApiClient(gateway.url);
      const owner = await signUp(api);
      const fundraiserIds: string[] = [];
      for (let i = 0; i < FUNDRAISERS; i++) fundraiserIds.push((await createFundraiser(api, as(owner))).id);
      const load = startScanLoad({
        url: gateway.url,
        fundraiserIds,
        concurrency: 32,
        total: 1_000_000,
        ratePerSecond: 800,
      });
      const accepted = () => countByStatus(load.answers)[202] ?? 0;
      await waitFor('1,500 scans acknowledged', accepted, (count) => count >= 1_500);

      // The consumers first, while the gateway keeps producing; then the gateway, still under load.
      const [ingestorStop, projectorStop] = await Promise.all([
        timed(() => ingestor.terminate()),
        timed(() => projector.terminate()),
      ]);
      console.log(
        `[SIGTERM] the ingestor exited after ${ingestorStop.ms} ms, the projector after ${projectorStop.ms} ms`,
      );
      expect(ingestorStop.code, outputTail(ingestor)).toBe(0);
      expect(ingestorStop.ms).toBeLessThan(STOPPED_WITHIN_MS);
      expect(projectorStop.code, outputTail(projector)).toBe(0);
      expect(projectorStop.ms).toBeLessThan(STOPPED_WITHIN_MS);
      const acceptedBeforeGatewayStop = accepted();
      await waitFor('500 more scans acknowledged', accepted, (count) => count >= acceptedBeforeGatewayStop + 500);
      const gatewayStop = await timed(() => gateway.terminate());
      console.log(`[SIGTERM] the gateway exited after ${gatewayStop.ms} ms`);
      expect(gatewayStop.code, outputTail(gateway)).toBe(0);
      expect(gatewayStop.ms).toBeLessThan(STOPPED_WITHIN_MS);
      await load.stop();

      // The stopped ingestor committed the offset of everything it had appended: nothing of its
      // work is left for Kafka to redeliver.
      const store = createSqliteEventStore({ path: path.join(dataDir, 'events.sqlite') });
      const admin = new Kafka({
        clientId: 'sigterm-test',
        brokers: [kafka.brokers],
        logLevel: logLevel.NOTHING,
      }).admin();
      await admin.connect();
      running.push({ kill: () => admin.disconnect() });
      const [committed] = await admin.fetchOffsets({ groupId, topics: [SCANS_TOPIC] });
      for (let partition = 0; partition < PARTITIONS; partition++) {
        const last = await store.readLastEvent(`scans-p${partition}`);
        const offset = committed!.partitions.find((entry) => entry.partition === partition)!.offset;
        const lastWritten = Number(last?.metadata.kafkaOffset ?? -1);
        // Kafka's committed offset is the next one to read; -1 when nothing was ever committed.
        expect(Number(offset), `scans.v1 partition ${partition}`).toBe(lastWritten === -1 ? -1 : lastWritten + 1);
      }

      [ingestor, projector] = await startWorkers();
      gateway = await startGateway();
      api = createApiClient(gateway.url);
      const drained = await drain({
        ledger: scanLedger(store),
        fundraiserIds,
        answers: load.answers,
        // Every request, counted or not: what the ledger holds to each 202.
        projectedScans: async (id) => (await api('GET', `/api/fundraisers/${id}/stats`, as(owner))).body.scanRequests,
        // The restarted ingestor has committed to the end of the topic: anything it would append
        // twice is in the store by then.
        caughtUp: () => groupCaughtUp(kafka.brokers, groupId, SCANS_TOPIC),
      });
      await store.close();
      expect(
        drained.tallies.filter((row) => row.missing > 0 || row.duplicates > 0 || row.projected !== row.recorded),
      ).toEqual([]);
      expect(drained.settled).toBe(true);
      expect(drained.tallies.reduce((sum, row) => sum + row.accepted, 0)).toBe(accepted());
    },
    scaled(300_000),
  );
});
