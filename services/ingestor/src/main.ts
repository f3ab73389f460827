import { createKafkaAdminSession } from '@qrshirt/kafka';
import {
  createReadiness,
  createStorageMonitor,
  instrumentEventStore,
  loadOrExit,
  openEventStore,
  openProcessBasics,
  runProcess,
  startOpsServer,
  type OpsServer,
  warnIfLowOnDisk,
} from '@qrshirt/runtime';
import { loadIngestorConfig } from './config';
import { createIngestor } from './ingestor';
import { registerIngestorMetrics } from './ingestor-metrics';

/** The ingestor process (`npm run start:ingestor`): Kafka's scans and analytics into the event store. */
const config = loadOrExit(loadIngestorConfig);
await runProcess('ingestor', async () => {
  const { log, metrics } = await openProcessBasics({
    service: 'ingestor',
    level: config.LOG_LEVEL,
    logDir: config.LOG_DIR,
    // DATA_DIR holds the SQLite event store, unless the events are in EventStoreDB.
    privateFolders: [config.EVENTSTORE_URL ? undefined : config.DATA_DIR, config.LOG_DIR],
  });
  // On a full disk a batch fails and Kafka hands it over again, until space is freed.
  const storage = config.EVENTSTORE_URL
    ? undefined
    : createStorageMonitor({ dataDir: config.DATA_DIR, registry: metrics, minFreeBytes: config.MIN_FREE_DISK });
  if (!config.EVENTSTORE_URL) {
    await warnIfLowOnDisk({ dataDir: config.DATA_DIR, minFreeBytes: config.MIN_FREE_DISK, log });
  }
  const measured = instrumentEventStore(openEventStore(config), metrics);
  const eventStore = storage ? storage.watchEventStore(measured) : measured;
  const kafka = createKafkaAdminSession(config.KAFKA_BROKERS, 'ingestor-probe');
  const ingestor = createIngestor({
    brokers: config.KAFKA_BROKERS,
    eventStore,
    log,
    groupId: config.INGESTOR_GROUP_ID,
    topics: {
      partitions: config.KAFKA_PARTITIONS,
      replicationFactor: config.KAFKA_REPLICATION_FACTOR,
      minInsyncReplicas: config.KAFKA_MIN_INSYNC_REPLICAS,
    },
    sessionTimeoutMs: config.KAFKA_SESSION_TIMEOUT_MS,
    anonymousEventsPerMinute: config.ANONYMOUS_EVENTS_PER_MINUTE,
  });
  registerIngestorMetrics(metrics, { status: ingestor.status, kafka, groupId: config.INGESTOR_GROUP_ID });
  const readiness = createReadiness({
    eventStore: async () => {
      await storage?.assertWritable('eventStore');
      await eventStore.headPosition();
    },
    kafka: () => kafka.reachable(),
    consumer: async () => ingestor.assertConsuming(),
    ...(storage && { diskSpace: () => storage.assertRoom() }),
  });
  let ops: OpsServer | undefined;
  return {
    log,
    async start() {
      ops = await startOpsServer({ host: config.OPS_HOST, port: config.OPS_PORT, readiness, registry: metrics });
      await ingestor.start();
      log.info({ brokers: config.KAFKA_BROKERS, groupId: config.INGESTOR_GROUP_ID, ops: ops.url }, 'ingestor running');
    },
    async close() {
      log.info(ingestor.status(), 'ingestor stopping');
      await ops?.close();
      // Finishes the batch in hand, commits its offsets and leaves the group.
      await ingestor.stop();
      // Each step named as it ends: a stop that overran its deadline once in CI said only
      // 'ingestor stopping', so which step held it was unknown.
      log.info('Kafka consumer and producer disconnected');
      await kafka.close();
      log.info('Kafka probe closed; closing the event store');
      await eventStore.close();
    },
  };
});
