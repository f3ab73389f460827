import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import {
  type Clock,
  createAdminAudit,
  createCharityUseCases,
  createCommandHandler,
  createPersonalData,
  type PersonalData,
  withPersonalData,
  donationsModule,
  createClaimMailRemovalLinks,
  fulfilmentModule,
  fundraisersModule,
  createInProcessBatcher,
  ownerMailModule,
  createRecordAnalytics,
  createScanVisitors,
  createShirtUseCases,
  createUserUseCases,
  createWaitlistUseCases,
  ensureLookupKeysInUse,
  type EventStore,
  seedCatalog,
  systemClock,
  createFundraiserQueries,
  fundraisersProjector,
  createAdminAuditQueries,
  createCatalogQueries,
  createFunnelQueries,
  createOverviewQueries,
  createUserQueries,
  createWaitlistQueries,
} from '@qrshirt/core';
import {
  closeServer,
  registerProjectionMetrics,
  createMetricsRegistry,
  createReadiness,
  type OpsServer,
  instrumentEventStore,
  createLogger,
  keepFoldersPrivate,
  openEventStore,
  type ReadinessCheck,
  restrictNewFiles,
  startOpsServer,
} from '@qrshirt/runtime';
import { createKafkaAdminSession, createKafkaIngestion } from '@qrshirt/kafka';
import {
  allProjectors,
  createMemoryChangeFeed,
  createProjectionMonitor,
  createRebuildJobs,
  type ProjectionRunner,
  startProjections,
  type ReadModelStore,
  waitWhileCatchingUp,
} from '@qrshirt/projections';
import { createRedisChangeFeed, createRedisReadModelStore } from '@qrshirt/redis';
import { createSqliteReadModelStore } from '@qrshirt/sqlite';
import type { Express } from 'express';
import type { Logger } from 'pino';
import { createAuth, openCredentialsStore } from './auth/create-auth';
import { createApp } from './app';
import type { Config } from './config';
import { createHttpServer } from './http/create-http-server';
import { createProofOfWork } from './http/proof-of-work';
import { createDemoProcessor, DEMO_WEBHOOK_TARGET, demoWebhookTransport } from './donations/demo-processor';
import { createDonationWebhooks } from './donations/donation-webhooks';
import { donationWebhookSecret } from './donations/webhook-secret';
import { createMail } from './mail/create-mail';
import { createClaimLinkMailer } from './mail/claim-link-mail';
import { createWaitlistConfirmationMailer } from './mail/waitlist-confirmation-mail';
import { createDailySummaryMailer } from './mail/daily-summary-mail';
import { DAILY_SUMMARY_INTERVAL_MS, type DailySummaryJob, startDailySummaryJob } from './mail/daily-summary-job';
import { createAccountClosing } from './auth/account-closing';
import { createPersonalDataExport } from './auth/personal-data-export';
import { createAccounts } from './auth/accounts';
import { createEmailChange } from './auth/email-change';
import { lookupKeysOf } from './auth/lookup-keys';
import { createEventStreams } from './http/event-streams';

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

/**
 * The composition root of the embedded process: gateway, scan batcher and projectors in one
 * process, on the SQLite store (or EventStoreDB) and in-process read models (or Redis). With
 * KAFKA_BROKERS, scans and analytics go to Kafka instead and an ingestor process appends them.
 */
export async function createEmbeddedProcess(
  config: Config,
  overrides: { clock?: Clock; log?: Logger; eventStore?: EventStore; dailySummaryIntervalMs?: number } = {},
): Promise<EmbeddedProcess> {
  // Here rather than in main.ts: the tests start this process in theirs, and DATA_DIR must be
  // private however it is started.
  restrictNewFiles();
  const clock = overrides.clock ?? systemClock;
  const log =
    overrides.log ?? (await createLogger({ service: 'gateway', level: config.LOG_LEVEL, logDir: config.LOG_DIR }));
  await keepFoldersPrivate([config.DATA_DIR, config.LOG_DIR], log);
  const metrics = createMetricsRegistry('gateway');
  // Given-events specifications hand in an in-memory store holding the history they start from.
  const eventStore = instrumentEventStore(overrides.eventStore ?? openEventStore(config), metrics);
  const lookupKeys = lookupKeysOf(config);
  // Before anything is found by a key: a log still naming addresses by unkeyed hashes, or by keys
  // of another secret, would show every address free (LookupKeysError says what to run).
  await ensureLookupKeysInUse({ eventStore, keys: lookupKeys, clock }).catch(async (error: unknown) => {
    await eventStore.close();
    throw error;
  });
  // Redis with REDIS_URL; else a SQLite file in DATA_DIR, where they keep their checkpoints
  // across restarts.
  const readModels = config.REDIS_URL
    ? createRedisReadModelStore({ url: config.REDIS_URL })
    : createSqliteReadModelStore({ path: config.readModelsFile });
  const credentials = openCredentialsStore(config);
  const personalData = createPersonalData({ keys: credentials });
  // Commands and the people-facing readers see names and emails in clear; the log and the
  // projectors, which read `eventStore` itself, only ever see them sealed.
  const peopleEventStore = withPersonalData(eventStore, personalData);
  const commands = createCommandHandler({ eventStore: peopleEventStore });
  if (config.SEED_CATALOG) await seedCatalog({ eventStore, clock });

  const projectionLog = log.child({ component: 'projections' });
  // With Redis, every gateway hears what the projector (in this or another process) committed.
  const changeFeed = config.REDIS_URL
    ? createRedisChangeFeed({
        url: config.REDIS_URL,
        onError: (err) => log.warn({ err }, 'live updates: Redis change feed'),
      })
    : createMemoryChangeFeed({ onListenerError: (err) => log.warn({ err }, 'live updates: listener failed') });
  // PROJECTIONS=off: the projector process writes the Redis read models this gateway reads.
  const {
    projections,
    runners,
    stop: stopProjections,
  } = startProjections({
    eventStore,
    store: readModels,
    projectors: config.PROJECTIONS === 'in-process' ? allProjectors : [],
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

  const ingestion = config.KAFKA_BROKERS
    ? await createKafkaIngestion({ brokers: config.KAFKA_BROKERS, partitions: config.KAFKA_PARTITIONS })
    : createInProcessBatcher({ eventStore });
  const kafka = config.KAFKA_BROKERS ? createKafkaAdminSession(config.KAFKA_BROKERS, 'gateway-probe') : undefined;
  const dependencies: Record<string, ReadinessCheck> = {
    eventStore: () => eventStore.headPosition(),
    readModels: () => readModels.ping(),
  };
  if (kafka) dependencies.kafka = () => kafka.reachable();
  const newId = randomUUID;
  const fundraiserQueries = createFundraiserQueries(readModels);
  const catalog = createCatalogQueries(readModels);
  const funnelQueries = createFunnelQueries(readModels);
  // The day's salt lives with the credentials (SQLite file or Redis), where every gateway sees it.
  const scanVisitors = createScanVisitors({ salts: credentials, clock });
  const fundraisersFeature = fundraisersModule({
    commands,
    fundraisers: fundraiserQueries,
    ingestion,
    visitors: scanVisitors,
    clock,
    newId,
  });
  const fundraisers = fundraisersFeature.useCases;
  const donationsFeature = donationsModule({ commands, findFundraiser: fundraisers.get, clock, newId });
  const donations = donationsFeature.useCases;
  const webhookSecret = donationWebhookSecret(config);
  if (!config.DONATION_WEBHOOK_SECRET && config.NODE_ENV === 'production') {
    log.warn(
      { file: config.donationWebhookSecretFile },
      'no DONATION_WEBHOOK_SECRET: donation webhooks are checked against a secret generated into DATA_DIR, ' +
        'which a real processor does not know; set its whsec_ secret in every gateway',
    );
  }
  const donationWebhooks = createDonationWebhooks({ secret: webhookSecret, donations });
  const donationLog = log.child({ component: 'donations' });
  // Every gateway runs a sender; leases make sure only one of them works a given message.
  const mail = createMail(config, {
    clock,
    log: log.child({ component: 'mail' }),
    metrics,
    webhooks: demoWebhookTransport({ secret: webhookSecret, webhooks: donationWebhooks, log: donationLog }),
  });
  mail.start();
  const demoProcessor = config.demoProcessor
    ? createDemoProcessor({
        findFundraiser: fundraisers.get,
        newId,
        enqueue: ({ webhookId, body, summary }) =>
          mail.webhooks.send({ messageId: webhookId, to: DEMO_WEBHOOK_TARGET, subject: summary, body }),
      })
    : null;
  const accounts = createAccounts({ commands, clock, lookupKeys });
  const userQueries = createUserQueries(readModels, personalData);
  const auth = createAuth(config, {
    clock,
    log,
    mail,
    credentials,
    isClosedAccount: (uid) => userQueries.isClosed(uid),
    lookupKeys,
  });
  const ownerMailFeature = ownerMailModule({
    commands,
    fundraisers: fundraiserQueries,
    subscribers: () => userQueries.dailySummarySubscribers(),
    addressOf: (uid) => accounts.addressOf(uid),
    sign: auth.keyedHash('unsubscribe links'),
    sendDailySummary: createDailySummaryMailer({ email: mail.email, publicBaseUrl: config.PUBLIC_BASE_URL }),
    clock,
  });
  const ownerMail = ownerMailFeature.useCases;
  const fulfilmentFeature = fulfilmentModule({
    commands,
    eventStore: peopleEventStore,
    clock,
    sendClaimLink: createClaimLinkMailer({ email: mail.email, publicBaseUrl: config.PUBLIC_BASE_URL }),
    addressOf: (uid) => accounts.addressOf(uid),
    shortCodeOf: fundraisers.shortCode,
  });
  const rebuilds = createRebuildJobs({ eventStore, store: readModels, log: projectionLog, clock });
  const liveStreams = createEventStreams();
  const readiness = createReadiness(dependencies);
  const waitlist = createWaitlistUseCases({
    commands,
    eventStore: peopleEventStore,
    clock,
    newId,
    sendConfirmationLink: createWaitlistConfirmationMailer({
      email: mail.email,
      publicBaseUrl: config.PUBLIC_BASE_URL,
    }),
    mailBudget: ({ to, client }) => auth.mailBudget(to, client),
    personalData,
    forgetMailTo: mail.forgetRecipient,
    lookupKeys,
    claimMailRemovalLinks: createClaimMailRemovalLinks(commands),
  });
  const { app, frontDoor } = createApp({
    log,
    modules: {
      donations: donationsFeature,
      fundraisers: fundraisersFeature,
      fulfilment: fulfilmentFeature,
      ownerMail: ownerMailFeature,
    },
    auth: auth.options,
    maxBodyBytes: config.MAX_BODY_BYTES,
    trustProxy: config.TRUST_PROXY,
    metrics,
    clock,
    newId,
    publicBaseUrl: config.PUBLIC_BASE_URL,
    donationWebhooks,
    demoProcessor,
    eventStore: peopleEventStore,
    commands,
    ingestion,
    lookupKeys,
    useCases: {
      users: createUserUseCases({ commands, clock, lookupKeys }),
      accountClosing: createAccountClosing({
        commands,
        credentials,
        personalData,
        forgetMailTo: mail.forgetRecipient,
        removeWaitlistEntriesMadeWith: (address) => waitlist.removeEntriesMadeWith(address),
        lookupKeys,
        clock,
      }),
      dataExport: createPersonalDataExport({
        commands,
        eventStore: peopleEventStore,
        credentials,
        fundraisers,
        lookupKeys,
        clock,
      }),
      emailChange: createEmailChange({
        accounts,
        credentials,
        email: mail.email,
        limiter: auth.options.limiter,
        publicBaseUrl: config.PUBLIC_BASE_URL,
        lookupKeys,
        clock,
      }),
      charities: createCharityUseCases({ commands, charities: catalog, clock, newId }),
      shirts: createShirtUseCases({ commands, clock, newId }),
      fundraisers,
      donations,
      waitlist,
      fulfilment: fulfilmentFeature.useCases,
      recordAnalytics: createRecordAnalytics({ ingestion, clock }),
      ownerMail,
      adminAudit: createAdminAudit({ eventStore, clock }),
    },
    catalog,
    fundraiserQueries,
    waitlist: createWaitlistQueries(readModels),
    admin: {
      adminEmails: config.ADMIN_EMAILS,
      overview: createOverviewQueries(readModels),
      funnel: (query) => funnelQueries.getFunnel(query, clock()),
      projections: createProjectionMonitor({
        eventStore,
        store: readModels,
        projectors: allProjectors,
        runners: new Map(projections.map(({ projector, runner }) => [projector.name, runner])),
        rebuilds,
        clock,
      }),
      rebuilds,
      outbox: mail.outbox,
      audit: createAdminAuditQueries(readModels),
    },
    live: { changeFeed, streams: liveStreams },
    web: {
      widgetUrl: config.VITE_DONATION_WIDGET_URL,
      apiUrl: config.VITE_API_URL,
      stripePublishableKey: config.stripe?.publishableKey ?? null,
    },
    proofOfWork: createProofOfWork({
      secrets: { signature: auth.derivedSecret('altcha challenges'), key: auth.derivedSecret('altcha keys') },
      maxNumber: config.ALTCHA_MAX_NUMBER,
      expirySeconds: config.ALTCHA_EXPIRY_SECONDS,
      // Solutions spent in any gateway: they share the credentials store.
      spent: credentials,
    }),
  });

  const dailySummaries = startDailySummaryJob({
    send: () => ownerMail.sendDueSummaries(),
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
      const opsServer = await startOpsServer({
        host: config.OPS_HOST,
        port: config.OPS_PORT,
        readiness,
        registry: metrics,
      });
      ops = opsServer;
      return new Promise((resolve, reject) => {
        const listening = createHttpServer(app, frontDoor).listen(config.PORT, config.HOST, () => {
          server = listening;
          const address = listening.address();
          const port = typeof address === 'object' && address ? address.port : config.PORT;
          resolve({ server: listening, url: `http://localhost:${port}`, opsUrl: opsServer.url });
        });
        listening.once('error', reject);
      });
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
      await ingestion.close();
      scanVisitors.close();
      await rebuilds.close();
      await dailySummaries.stop();
      await stopProjections();
      await changeFeed.close();
      await kafka?.close();
      await auth.close();
      await mail.close();
      await ops?.close();
      await readModels.close();
      await eventStore.close();
    },
  };
}
