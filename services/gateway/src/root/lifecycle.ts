import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type EventStore, fundraisersProjector, type PersonalData } from '@qrshirt/core';
import {
  createProjectionMonitor,
  createRebuildJobs,
  type ProjectionRunner,
  projectionsRunning,
  type ReadModelStore,
  startProjections,
  waitWhileCatchingUp,
} from '@qrshirt/projections';
import {
  closeServer,
  createReadiness,
  listenOn,
  type OpsServer,
  registerProjectionMetrics,
  type ReadinessCheck,
  startOpsServer,
} from '@qrshirt/runtime';
import type { Express } from 'express';
import type { Logger } from 'pino';
import type { Config } from '../config';
import { createEventStreams } from '../http/event-streams';
import { createHttpServer } from '../http/create-http-server';
import { warmPages } from '../http/warm-pages';
import { DAILY_SUMMARY_INTERVAL_MS, type DailySummaryJob, startDailySummaryJob } from '../mail/daily-summary-job';
import { createFeaturesApp, type Features } from './features';
import type { Infrastructure, ProcessOverrides } from './infrastructure';

export interface EmbeddedProcess {
  app: Express;
  eventStore: EventStore;
  /** Opens the names and emails that `eventStore` holds sealed. */
  personalData: PersonalData;
  readModels: ReadModelStore;
  runners: ProjectionRunner[];
  log: Logger;
  /** Owners' daily summaries: a pass at start and every interval; `run` makes one now. */
  dailySummaries: DailySummaryJob;
  /** Resolves once every projection has handled every event stored so far. */
  projectionsCaughtUp(timeoutMs?: number): Promise<void>;
  /** Serves, and the operations endpoints on OPS_HOST:OPS_PORT (`opsUrl`). */
  listen(): Promise<{ server: Server; url: string; opsUrl: string }>;
  close(): Promise<void>;
}

/**
 * Boot waits for the embedded read models to catch up with the log before serving. They resume
 * from their stored checkpoints, so this is only long for a first start on a big log (or after
 * read-models.sqlite was deleted), and it waits as long as they move: it gives up only when none
 * committed for this long.
 */
const BOOT_CATCH_UP_STALL_MS = 2 * 60_000;

/**
 * On shutdown, how long requests in flight may take before their connections are dropped (a
 * stream never ends by itself). The batchers drain after that, within the process's deadline.
 */
const REQUEST_GRACE_MS = 3_000;

/** What /readyz checks: each store writable and answering, the projections, Kafka, the warmed pages. */
function readinessChecks(
  { storage, eventStore, readModels, kafka }: Infrastructure,
  runners: ProjectionRunner[],
  pagesWarmed: () => boolean,
): Record<string, ReadinessCheck> {
  const dependencies: Record<string, ReadinessCheck> = {
    eventStore: async () => {
      await storage.assertWritable('eventStore');
      await eventStore.headPosition();
    },
    readModels: async () => {
      await storage.assertWritable('readModels');
      await readModels.ping();
    },
    // Their reads go on while the disk is full; their writes (mail, sign-in, keys) do not.
    outbox: () => storage.assertWritable('outbox'),
    credentials: () => storage.assertWritable('credentials'),
    diskSpace: () => storage.assertRoom(),
    serverPages: async () => {
      if (!pagesWarmed()) throw new Error('warming up');
    },
  };
  // With PROJECTIONS=off the projector process runs them, and its own /readyz says how they are.
  if (runners.length > 0) dependencies.projections = () => projectionsRunning(runners);
  if (kafka) dependencies.kafka = () => kafka.reachable();
  return dependencies;
}

/**
 * The composition root's third room: the projections started and caught up, readiness, the
 * app, the daily summaries; then listening (warming the pages before /readyz says ready) and
 * closing in order.
 */
export async function startLifecycle(
  config: Config,
  infrastructure: Infrastructure,
  features: Features,
  overrides: ProcessOverrides,
): Promise<EmbeddedProcess> {
  const { log, metrics, clock, eventStore, readModels, personalData, changeFeed } = infrastructure;
  const { modules, catalogue, mail, ownerMail } = features;
  const projectionLog = log.child({ component: 'projections' });
  // PROJECTIONS=off: the projector process writes the Redis read models this gateway reads.
  const projectors = modules.flatMap((module) => module.projectors);
  const {
    projections,
    runners,
    stop: stopProjections,
  } = startProjections({
    eventStore,
    store: readModels,
    projectors: config.PROJECTIONS === 'in-process' ? projectors : [],
    log: projectionLog,
    live: { projector: fundraisersProjector, feed: changeFeed },
  });
  registerProjectionMetrics(metrics, { eventStore, projections });
  const projectionsCaughtUp = async (timeoutMs?: number) => {
    await Promise.all(runners.map((runner) => runner.waitUntilCaughtUp(timeoutMs)));
  };
  // Serve only once the embedded read models reflect the whole log: they resume from their
  // checkpoints, so this waits for what was appended since they last committed (none of it
  // after a clean stop), not for the whole log.
  if (!config.REDIS_URL) {
    await waitWhileCatchingUp(runners, {
      stallMs: BOOT_CATCH_UP_STALL_MS,
      onWaiting: (behind) => projectionLog.info({ behind }, 'read models still catching up with the log'),
    });
  }
  mail.start();

  /** Set once `listen` has warmed the server pages (or given up on it): until then not ready. */
  let pagesWarmed = false;
  const readiness = createReadiness(readinessChecks(infrastructure, runners, () => pagesWarmed));
  const rebuilds = createRebuildJobs({ eventStore, store: readModels, log: projectionLog, clock });
  const liveStreams = createEventStreams();
  const { app, frontDoor } = createFeaturesApp(config, infrastructure, features, {
    projections: createProjectionMonitor({
      eventStore,
      store: readModels,
      projectors,
      runners: new Map(projections.map(({ projector, runner }) => [projector.name, runner])),
      rebuilds,
      clock,
    }),
    rebuilds,
    streams: liveStreams,
  });

  const dailySummaries = startDailySummaryJob({
    send: () => ownerMail.useCases.sendDueSummaries(),
    intervalMs: overrides.dailySummaryIntervalMs ?? DAILY_SUMMARY_INTERVAL_MS,
    log: log.child({ component: 'daily-summaries' }),
  });

  let server: Server | undefined;
  let ops: OpsServer | undefined;
  return {
    app,
    eventStore,
    personalData,
    readModels,
    runners,
    log,
    dailySummaries,
    projectionsCaughtUp,
    async listen() {
      // The operations port first: a probe of /healthz is answered from the start, and /readyz
      // says 503 (serverPages) while the pages warm, rather than a refused connection.
      ops = await startOpsServer({
        host: config.OPS_HOST,
        port: config.OPS_PORT,
        readiness,
        registry: metrics,
      });
      const listening = createHttpServer(app, frontDoor);
      await listenOn(listening, { port: config.PORT, host: config.HOST, variable: 'PORT' });
      server = listening;
      const address = listening.address() as AddressInfo;
      // Before /readyz says ready: a first visitor after a start gets pages as fast as the next one.
      // Only a speed-up: a gateway that cannot ask itself (a HOST it cannot reach) serves all the same.
      const startedAt = performance.now();
      try {
        const shirtId = (await catalogue.queries.catalog.listShirts())[0]?.id;
        const warmed = await warmPages(address, { shirtId });
        log.info({ warmed, ms: Math.round(performance.now() - startedAt) }, 'server pages warmed');
      } catch (error) {
        log.warn({ err: error }, 'server pages not warmed');
      }
      pagesWarmed = true;
      return { server: listening, url: `http://localhost:${address.port}`, opsUrl: ops.url };
    },
    /**
     * Stops accepting, lets requests in flight finish, drains the batchers (every fact a caller
     * was told is stored gets written or produced), lets the projections commit their last batch
     * with its checkpoint, then closes the connections.
     */
    async close() {
      // Live streams never end by themselves: end them rather than wait out the grace period.
      liveStreams.closeAll();
      if (server) await closeServer(server, REQUEST_GRACE_MS);
      await infrastructure.drain();
      await rebuilds.close();
      await dailySummaries.stop();
      await stopProjections();
      await features.close();
      await ops?.close();
      await infrastructure.close();
    },
  };
}
