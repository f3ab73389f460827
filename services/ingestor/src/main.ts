import { createEventStoreDbEventStore, createSqliteEventStore } from '@qrshirt/core';
import { pino } from 'pino';
import { loadIngestorConfigOrExit } from './config';
import { createIngestor } from './ingestor';

/** The ingestor process: Kafka's scans and analytics into the event store. */
const config = loadIngestorConfigOrExit();
const log = pino({ level: config.LOG_LEVEL });
const eventStore = config.EVENTSTORE_URL
  ? createEventStoreDbEventStore({ connectionString: config.EVENTSTORE_URL })
  : createSqliteEventStore({ path: config.databaseFile });
const ingestor = createIngestor({
  brokers: config.KAFKA_BROKERS,
  eventStore,
  log,
  groupId: config.INGESTOR_GROUP_ID,
  partitions: config.KAFKA_PARTITIONS,
  sessionTimeoutMs: config.KAFKA_SESSION_TIMEOUT_MS,
});
await ingestor.start();
log.info({ brokers: config.KAFKA_BROKERS, groupId: config.INGESTOR_GROUP_ID }, 'ingestor running');

let stopping = false;
async function stop(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  log.info({ signal, ...ingestor.status() }, 'ingestor stopping');
  await ingestor.stop();
  await eventStore.close();
  process.exit(0);
}
process.on('SIGTERM', () => void stop('SIGTERM'));
process.on('SIGINT', () => void stop('SIGINT'));
