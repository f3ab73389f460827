import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import {
  type Clock,
  createCommandHandler,
  createEventStoreDbEventStore,
  createInProcessBatcher,
  createKafkaIngestion,
  createSqliteEventStore,
  type EventStore,
  seedCatalog,
  systemClock,
} from '@qrshirt/core';
import {
  allProjectors,
  createCatalogQueries,
  createFundraiserQueries,
  createMemoryReadModelStore,
  createProjectionRunner,
  createRedisReadModelStore,
  createUserQueries,
  createWaitlistQueries,
  type ProjectionRunner,
  type ReadModelStore,
} from '@qrshirt/projections';
import type { Express } from 'express';
import { type Logger, pino } from 'pino';
import { createDevTokenVerifier } from './auth/token-verifier';
import { createApp } from './app';
import type { Config } from './config';
import { createHttpServer } from './http/create-http-server';

export interface EmbeddedProcess {
  app: Express;
  eventStore: EventStore;
  readModels: ReadModelStore;
  runners: ProjectionRunner[];
  log: Logger;
  /** Resolves once every projection has handled every event stored so far. */
  projectionsCaughtUp(timeoutMs?: number): Promise<void>;
  listen(): Promise<{ server: Server; url: string }>;
  close(): Promise<void>;
}

/** How long boot may take to replay the log into in-process read models before serving. */
const BOOT_REPLAY_TIMEOUT_MS = 10 * 60_000;

/**
 * The composition root of the embedded process: gateway, scan batcher and projectors in one
 * process, on the SQLite store (or EventStoreDB) and in-process read models (or Redis). With
 * KAFKA_BROKERS, scans and analytics go to Kafka instead and an ingestor process appends them.
 */
export async function createEmbeddedProcess(
  config: Config,
  overrides: { clock?: Clock; log?: Logger } = {},
): Promise<EmbeddedProcess> {
  const clock = overrides.clock ?? systemClock;
  const log = overrides.log ?? pino({ level: config.LOG_LEVEL });
  if (config.NODE_ENV === 'production') {
    throw new Error('Development tokens are enabled: the embedded process does not run with NODE_ENV=production yet');
  }
  const eventStore = config.EVENTSTORE_URL
    ? createEventStoreDbEventStore({ connectionString: config.EVENTSTORE_URL })
    : createSqliteEventStore({ path: config.databaseFile });
  const readModels = config.REDIS_URL ? createRedisReadModelStore({ url: config.REDIS_URL }) : createMemoryReadModelStore();
  const commands = createCommandHandler({ eventStore });
  if (config.SEED_CATALOG) await seedCatalog({ eventStore, clock });

  const projectionLog = log.child({ component: 'projections' });
  const runners = allProjectors.map((projector) =>
    createProjectionRunner({ eventStore, store: readModels, projector, log: projectionLog }),
  );
  for (const runner of runners) runner.start();
  const projectionsCaughtUp = async (timeoutMs?: number) => {
    await Promise.all(runners.map((runner) => runner.waitUntilCaughtUp(timeoutMs)));
  };
  // In-process read models start empty: serve only once they reflect the whole log again.
  if (!config.REDIS_URL) await projectionsCaughtUp(BOOT_REPLAY_TIMEOUT_MS);

  const ingestion = config.KAFKA_BROKERS
    ? await createKafkaIngestion({ brokers: config.KAFKA_BROKERS, partitions: config.KAFKA_PARTITIONS })
    : createInProcessBatcher({ eventStore });
  const app = createApp({
    log,
    tokens: createDevTokenVerifier(),
    maxBodyBytes: config.MAX_BODY_BYTES,
    clock,
    newId: randomUUID,
    eventStore,
    commands,
    ingestion,
    catalog: createCatalogQueries(readModels),
    fundraisers: createFundraiserQueries(readModels),
    users: createUserQueries(readModels),
    waitlist: createWaitlistQueries(readModels),
  });

  let server: Server | undefined;
  return {
    app,
    eventStore,
    readModels,
    runners,
    log,
    projectionsCaughtUp,
    listen() {
      return new Promise((resolve, reject) => {
        const listening = createHttpServer(app).listen(config.PORT, config.HOST, () => {
          server = listening;
          const address = listening.address();
          const port = typeof address === 'object' && address ? address.port : config.PORT;
          resolve({ server: listening, url: `http://localhost:${port}` });
        });
        listening.once('error', reject);
      });
    },
    async close() {
      if (server) {
        const closing = new Promise((resolve) => server!.close(resolve));
        server.closeIdleConnections();
        await closing;
      }
      await ingestion.close();
      await Promise.all(runners.map((runner) => runner.stop()));
      await readModels.close();
      await eventStore.close();
    },
  };
}
