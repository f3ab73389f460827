import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type GatewayProcess, startGatewayProcess } from '../../../gateway/test/support/gateway-process';
import { createApiClient, createFundraiser, userToken } from '../../../gateway/test/support/test-server';
import { type IngestorProcess, startIngestorProcess } from './ingestor-process';
import { openScanLedger, type ScanLedger } from './scan-ledger';

export const PARTITIONS = 6;
/** Short, so a killed or paused ingestor's partitions move within seconds. */
export const SESSION_TIMEOUT_MS = 6_000;

export interface ScanPipelineOptions {
  brokers: string;
  redisUrl: string;
  /** A consumer group no other test uses. */
  groupId: string;
  fundraisers: number;
}

export interface ScanPipeline {
  gateway: GatewayProcess;
  fundraiserIds: string[];
  /** The SQLite event store file the gateway and the ingestors share. */
  databaseFile: string;
  ledger: ScanLedger;
  /** Another ingestor process in the pipeline's group; stop() kills it if the test did not. */
  startIngestor(): Promise<IngestorProcess>;
  /**
   * The fundraiser's projected scan requests (stats' `scanRequests`): every one the pipeline
   * took. The load is one client, one person counted once, so `scans` would say nothing here.
   */
  projectedScans(fundraiserId: string): Promise<number>;
  /** Kills every process it started and deletes the data folder; safe after a partial start. */
  stop(): Promise<void>;
}

/**
 * The distributed scan path as separate OS processes: a gateway producing to Kafka with its read
 * models in Redis, ingestors appending to a SQLite file in a fresh folder, and fundraisers whose
 * owners can read their stats.
 */
export async function startScanPipeline(options: ScanPipelineOptions): Promise<ScanPipeline> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'qrshirt-ingest-'));
  const ingestors: IngestorProcess[] = [];
  let gateway: GatewayProcess | undefined;
  let ledger: ScanLedger | undefined;
  const stop = async () => {
    await Promise.all(ingestors.map((ingestor) => ingestor.kill()));
    if (gateway) await stopWithin(gateway, 15_000);
    await ledger?.close();
    await rm(dataDir, { recursive: true, force: true });
  };
  const kafkaEnv = { KAFKA_BROKERS: options.brokers, KAFKA_PARTITIONS: String(PARTITIONS), DATA_DIR: dataDir };
  try {
    // The gateway creates the topics and the event store file before any ingestor starts.
    gateway = await startGatewayProcess({ ...kafkaEnv, REDIS_URL: options.redisUrl, NODE_ENV: 'development' });
    const { child } = gateway;
    // Should the test runner die first, the gateway may not outlive it.
    const killOnExit = () => child.kill('SIGKILL');
    process.once('exit', killOnExit);
    child.once('exit', () => process.off('exit', killOnExit));
    const api = createApiClient(gateway.url);
    const owners = Array.from({ length: options.fundraisers }, (_, i) => `scan-owner-${i}`);
    const fundraiserIds: string[] = [];
    for (const owner of owners) fundraiserIds.push((await createFundraiser(api, owner)).id);
    const ownerOf = new Map(fundraiserIds.map((id, i) => [id, owners[i]!]));
    const databaseFile = path.join(dataDir, 'events.sqlite');
    ledger = openScanLedger(databaseFile);
    return {
      gateway,
      fundraiserIds,
      databaseFile,
      ledger,
      async startIngestor() {
        const ingestor = await startIngestorProcess({
          ...kafkaEnv,
          INGESTOR_GROUP_ID: options.groupId,
          KAFKA_SESSION_TIMEOUT_MS: String(SESSION_TIMEOUT_MS),
        });
        ingestors.push(ingestor);
        return ingestor;
      },
      async projectedScans(fundraiserId) {
        const answer = await api('GET', `/api/fundraisers/${fundraiserId}/stats`, {
          token: userToken(ownerOf.get(fundraiserId)!),
        });
        if (answer.status !== 200) throw new Error(`stats answered ${answer.status}: ${JSON.stringify(answer.body)}`);
        return (answer.body as { scanRequests: number }).scanRequests;
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** SIGTERM, then SIGKILL if it has not exited in time: cleanup must not hang on a stuck shutdown. */
async function stopWithin(gateway: GatewayProcess, ms: number): Promise<void> {
  const timer = setTimeout(() => gateway.child.kill('SIGKILL'), ms);
  await gateway.stop();
  clearTimeout(timer);
}
