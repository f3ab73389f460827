import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  as,
  createApiClient,
  createFundraiser,
  type Drained,
  drain,
  type FundraiserTally,
  type GatewayProcess,
  groupCaughtUp,
  type ScanAnswer,
  type ScanLoad,
  scaled,
  scanLedger,
  signUp,
  startGatewayProcess,
  startIngestorProcess,
  startScanLoad,
  type WorkerProcess,
} from '@qrshirt/test-support';
import { describeWithRedis, type TestKafka } from '@qrshirt/test-support/vitest';
import type { EventStore } from '@qrshirt/core';
import { SCANS_TOPIC } from '@qrshirt/kafka';
import { createSqliteEventStore } from '@qrshirt/sqlite';
import { afterAll } from 'vitest';

export const PARTITIONS = 6;
/** Short, so a killed or paused ingestor's partitions move within seconds. */
export const SESSION_TIMEOUT_MS = 6_000;

interface ScanPipeline {
  gateway: GatewayProcess;
  fundraiserIds: string[];
  /** The SQLite event store file the gateway and the ingestors share. */
  databaseFile: string;
  /** A second connection to that file, for streams and positions. */
  store: EventStore;
  /** Another ingestor process in the pipeline's group; stop() kills it if the test did not. */
  /** `env` adds to (or overrides) the pipeline's settings, e.g. a LOG_LEVEL. */
  startIngestor(env?: Record<string, string>): Promise<WorkerProcess>;
  /** Scanners on every fundraiser of the pipeline, 64 at a time, `total` scans at most. */
  startLoad(options: { total: number; ratePerSecond: number }): ScanLoad;
  /**
   * Waits until the ingestors have committed every scan in Kafka, and every acknowledged scan is
   * stored and projected (see drain).
   */
  drain(answers: readonly ScanAnswer[]): Promise<Drained>;
  /** Kills every process it started and deletes the data folder; safe after a partial start. */
  stop(): Promise<void>;
}

/**
 * A describe block whose tests run the distributed scan path against `kafka`: `start` launches a
 * gateway producing to Kafka with its read models in Redis, ingestors appending to a SQLite file in
 * a fresh folder, and fundraisers whose owner can read their stats; the block stops it at the end.
 * The gateway writes Redis's default key prefix, checkpoints included, so each block gets a Redis
 * of its own: a checkpoint left by another event store would skip this one's events.
 */
export function describeWithScanPipeline(
  kafka: TestKafka,
  name: string,
  body: (start: (fundraisers: number) => Promise<ScanPipeline>) => void,
): void {
  describeWithRedis(
    name,
    (redis) => {
      let pipeline: ScanPipeline | undefined;
      afterAll(async () => {
        await pipeline?.stop();
      });
      body(async (fundraisers) => {
        pipeline = await startScanPipeline(kafka.brokers, redis.url, kafka.freshName(), fundraisers);
        return pipeline;
      });
    },
    { ownServer: true },
  );
}

/** The tallies of a pipeline that stored and projected each acknowledged scan exactly once. */
export const eachAcceptedOnce = (tallies: readonly FundraiserTally[]): FundraiserTally[] =>
  tallies.map((row) => ({
    fundraiserId: row.fundraiserId,
    accepted: row.accepted,
    recorded: row.accepted,
    projected: row.accepted,
    duplicates: 0,
    missing: 0,
  }));

async function startScanPipeline(
  brokers: string,
  redisUrl: string,
  groupId: string,
  fundraisers: number,
): Promise<ScanPipeline> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'qrshirt-ingest-'));
  const ingestors: WorkerProcess[] = [];
  let gateway: GatewayProcess | undefined;
  let store: EventStore | undefined;
  const stop = async () => {
    await Promise.all(ingestors.map((ingestor) => ingestor.kill()));
    await gateway?.terminate();
    await store?.close();
    await rm(dataDir, { recursive: true, force: true });
  };
  const kafkaEnv = { KAFKA_BROKERS: brokers, KAFKA_PARTITIONS: String(PARTITIONS), DATA_DIR: dataDir };
  try {
    // The gateway creates the topics and the event store file before any ingestor starts.
    gateway = await startGatewayProcess({ ...kafkaEnv, REDIS_URL: redisUrl, NODE_ENV: 'development' });
    const { url } = gateway;
    const api = createApiClient(url);
    const owner = as(await signUp(api));
    const fundraiserIds: string[] = [];
    for (let i = 0; i < fundraisers; i++) fundraiserIds.push((await createFundraiser(api, owner)).id);
    const databaseFile = path.join(dataDir, 'events.sqlite');
    const opened = createSqliteEventStore({ path: databaseFile });
    store = opened;
    const ledger = scanLedger(opened);
    const projectedScans = async (fundraiserId: string) => {
      const answer = await api('GET', `/api/fundraisers/${fundraiserId}/stats`, owner);
      if (answer.status !== 200) throw new Error(`stats answered ${answer.status}: ${JSON.stringify(answer.body)}`);
      // Every request the pipeline took, counted or not: what the ledger holds to each 202.
      return (answer.body as { scanRequests: number }).scanRequests;
    };
    return {
      gateway,
      fundraiserIds,
      databaseFile,
      store: opened,
      async startIngestor(env = {}) {
        const ingestor = await startIngestorProcess({
          ...kafkaEnv,
          INGESTOR_GROUP_ID: groupId,
          KAFKA_SESSION_TIMEOUT_MS: String(SESSION_TIMEOUT_MS),
          ...env,
        });
        ingestors.push(ingestor);
        return ingestor;
      },
      startLoad: ({ total, ratePerSecond }) =>
        startScanLoad({ url, fundraiserIds, concurrency: 64, total, ratePerSecond }),
      drain: (answers) =>
        drain({
          ledger,
          fundraiserIds,
          answers,
          projectedScans,
          // Its ingestors have appended every scan the gateway produced, 503s that reached Kafka anyway included.
          caughtUp: () => groupCaughtUp(brokers, groupId, SCANS_TOPIC),
          timeoutMs: scaled(60_000),
        }),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
