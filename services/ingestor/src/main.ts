import { createKafkaAdminSession } from '@qrshirt/kafka';
import {
  createMetricsRegistry,
  createReadiness,
  instrumentEventStore,
  loadOrExit,
  createLogger,
  keepFoldersPrivate,
  openEventStore,
  restrictNewFiles,
  startOpsServer,
  stopOnSignals,
} from '@qrshirt/runtime';
import { loadIngestorConfig } from './config';
import { createIngestor } from './ingestor';
import { registerIngestorMetrics } from './ingestor-metrics';

/** The ingestor process (`npm run start:ingestor`): Kafka's scans and analytics into the event store. */
const config = loadOrExit(loadIngestorConfig);
restrictNewFiles();
const log = await createLogger({ service: 'ingestor', level: config.LOG_LEVEL, logDir: config.LOG_DIR });
// DATA_DIR holds the SQLite event store, unless the events are in EventStoreDB.
await keepFoldersPrivate([config.EVENTSTORE_URL ? undefined : config.DATA_DIR, config.LOG_DIR], log);
const registry = createMetricsRegistry('ingestor');
const eventStore = instrumentEventStore(openEventStore(config), registry);
const kafka = createKafkaAdminSession(config.KAFKA_BROKERS, 'ingestor-probe');
const ingestor = createIngestor({
  brokers: config.KAFKA_BROKERS,
  eventStore,
  log,
  groupId: config.INGESTOR_GROUP_ID,
  partitions: config.KAFKA_PARTITIONS,
  sessionTimeoutMs: config.KAFKA_SESSION_TIMEOUT_MS,
});
registerIngestorMetrics(registry, { status: ingestor.status, kafka, groupId: config.INGESTOR_GROUP_ID });
const readiness = createReadiness({
  eventStore: () => eventStore.headPosition(),
  kafka: () => kafka.reachable(),
});
const ops = await startOpsServer({ host: config.OPS_HOST, port: config.OPS_PORT, readiness, registry });
await ingestor.start();
log.info({ brokers: config.KAFKA_BROKERS, groupId: config.INGESTOR_GROUP_ID, ops: ops.url }, 'ingestor running');

stopOnSignals({
  log,
  async stop() {
    log.info(ingestor.status(), 'ingestor stopping');
    await ops.close();
    // Finishes the batch in hand, commits its offsets and leaves the group.
    await ingestor.stop();
    await kafka.close();
    await eventStore.close();
  },
});
