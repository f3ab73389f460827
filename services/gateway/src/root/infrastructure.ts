import {
  type Clock,
  createCommandHandler,
  createInProcessBatcher,
  createPersonalData,
  createScanStreamWriter,
  EMBEDDED_SCAN_STREAM,
  ensureLookupKeysInUse,
  type EventStore,
  systemClock,
  withPersonalData,
} from '@qrshirt/core';
import { createKafkaAdminSession, createKafkaIngestion } from '@qrshirt/kafka';
import { createMemoryChangeFeed } from '@qrshirt/projections';
import { createRedisChangeFeed, createRedisReadModelStore } from '@qrshirt/redis';
import {
  createStorageMonitor,
  instrumentEventStore,
  openEventStore,
  openProcessBasics,
  warnIfLowOnDisk,
} from '@qrshirt/runtime';
import { createSqliteReadModelStore } from '@qrshirt/sqlite';
import type { Logger } from 'pino';
import { openCredentialsStore } from '../auth/create-auth';
import { lookupKeysOf } from '../auth/lookup-keys';
import type { Config } from '../config';
import { createCheckoutSigner } from '../donations/checkout-signature';
import { createStripeClient } from '../donations/stripe-client';

/** What `createEmbeddedProcess` may be handed instead of what the config names. */
export interface ProcessOverrides {
  clock?: Clock;
  log?: Logger;
  /** Given-events specifications hand in an in-memory store holding the history they start from. */
  eventStore?: EventStore;
  dailySummaryIntervalMs?: number;
}

/**
 * The composition root's first room: the stores and backends the config names, opened and
 * checked (the log's lookup keys), with the full-disk watch around every store that writes.
 * Nothing of a feature is made here.
 */
export async function openInfrastructure(config: Config, overrides: ProcessOverrides) {
  // Here rather than in main.ts: the tests start this process in theirs, and DATA_DIR must be
  // private however it is started.
  const { log, metrics } = await openProcessBasics({
    service: 'gateway',
    level: config.LOG_LEVEL,
    logDir: config.LOG_DIR,
    privateFolders: [config.DATA_DIR, config.LOG_DIR],
    log: overrides.log,
  });
  const clock = overrides.clock ?? systemClock;
  await warnIfLowOnDisk({ dataDir: config.DATA_DIR, minFreeBytes: config.MIN_FREE_DISK, log });
  // A full disk fails writes (503) while reads go on; /readyz says so until space is freed.
  const storage = createStorageMonitor({
    dataDir: config.DATA_DIR,
    registry: metrics,
    minFreeBytes: config.MIN_FREE_DISK,
  });
  const eventStore = storage.watchEventStore(
    instrumentEventStore(overrides.eventStore ?? openEventStore(config), metrics),
  );
  const lookupKeys = lookupKeysOf(config);
  // Before anything is found by a key: a log still naming addresses by unkeyed hashes, or by keys
  // of another secret, would show every address free (LookupKeysError says what to run).
  await ensureLookupKeysInUse({ eventStore, keys: lookupKeys, clock }).catch(async (error: unknown) => {
    await eventStore.close();
    throw error;
  });
  // Redis with REDIS_URL; else a SQLite file in DATA_DIR, where they keep their checkpoints
  // across restarts.
  const readModels = storage.watchReadModels(
    config.REDIS_URL
      ? createRedisReadModelStore({ url: config.REDIS_URL })
      : createSqliteReadModelStore({ path: config.readModelsFile }),
  );
  const credentials = storage.watchCredentials(openCredentialsStore(config));
  const personalData = createPersonalData({ keys: credentials });
  // Commands and the people-facing readers see names and emails in clear; the log and the
  // projectors, which read `eventStore` itself, only ever see them sealed.
  const peopleEventStore = withPersonalData(eventStore, personalData);
  const commands = createCommandHandler({ eventStore: peopleEventStore });
  // With Redis, every gateway hears what the projector (in this or another process) committed.
  const changeFeed = config.REDIS_URL
    ? createRedisChangeFeed({
        url: config.REDIS_URL,
        onError: (err) => log.warn({ err }, 'live updates: Redis change feed'),
      })
    : createMemoryChangeFeed({ onListenerError: (err) => log.warn({ err }, 'live updates: listener failed') });
  const ingestion = config.KAFKA_BROKERS
    ? await createKafkaIngestion({
        brokers: config.KAFKA_BROKERS,
        partitions: config.KAFKA_PARTITIONS,
        replicationFactor: config.KAFKA_REPLICATION_FACTOR,
        minInsyncReplicas: config.KAFKA_MIN_INSYNC_REPLICAS,
        warn: (message) => log.warn(message),
      })
    : createInProcessBatcher({
        eventStore,
        scans: createScanStreamWriter(eventStore, EMBEDDED_SCAN_STREAM),
        anonymousEventsPerMinute: config.ANONYMOUS_EVENTS_PER_MINUTE,
      });
  const kafka = config.KAFKA_BROKERS ? createKafkaAdminSession(config.KAFKA_BROKERS, 'gateway-probe') : undefined;
  const stripe = config.stripe && {
    client: createStripeClient(config.stripe),
    signer: createCheckoutSigner(config.stripe.secretKey),
    live: config.stripe.live,
    platformFeePercent: config.stripe.platformFeePercent,
  };

  return {
    log,
    metrics,
    clock,
    storage,
    eventStore,
    lookupKeys,
    readModels,
    credentials,
    personalData,
    peopleEventStore,
    commands,
    changeFeed,
    ingestion,
    kafka,
    stripe,
    /** Every fact a caller was told is stored gets written or produced: before the features close. */
    drain: () => ingestion.close(),
    /** Last, once nothing else uses them. */
    async close() {
      await changeFeed.close();
      await kafka?.close();
      await readModels.close();
      await eventStore.close();
    },
  };
}

export type Infrastructure = Awaited<ReturnType<typeof openInfrastructure>>;
