import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  adminAuditModule,
  analyticsModule,
  catalogueModule,
  type Clock,
  createAccounts,
  createAddressRecords,
  createCatalogueEntries,
  createClaimMailRemovalLinks,
  createCommandHandler,
  createEntryFundraisers,
  createFundraiserQueries,
  createInProcessBatcher,
  createScanStreamWriter,
  createSummaryOwners,
  createPersonalData,
  createScanVisitors,
  donationsModule,
  EMBEDDED_SCAN_STREAM,
  ensureAddressRecords,
  ensureLookupKeysInUse,
  type EventStore,
  fulfilmentModule,
  fundraisersModule,
  fundraisersProjector,
  fundraiserStreamName,
  fulfilmentStreamName,
  ownerMailModule,
  type PersonalData,
  seedCatalog,
  systemClock,
  usersModule,
  waitlistModule,
  waitlistRemovalStreamName,
  withPersonalData,
} from '@qrshirt/core';
import {
  closeServer,
  registerProjectionMetrics,
  createReadiness,
  createStorageMonitor,
  type OpsServer,
  instrumentEventStore,
  openEventStore,
  openProcessBasics,
  type ReadinessCheck,
  startOpsServer,
  listenOn,
  warnIfLowOnDisk,
} from '@qrshirt/runtime';
import { createKafkaAdminSession, createKafkaIngestion } from '@qrshirt/kafka';
import {
  createMemoryChangeFeed,
  createProjectionMonitor,
  projectionsRunning,
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
import { createCheckoutSigner } from './donations/checkout-signature';
import { createStripeBooks } from './donations/stripe-books';
import { createStripeChargeSettlements } from './donations/stripe-charge-settlements';
import { createStripeCheckoutSessions } from './donations/stripe-checkout';
import { createStripeClient } from './donations/stripe-client';
import { createStripePayoutAccounts } from './donations/stripe-payout-accounts';
import { createStripeWebhooks } from './donations/stripe-webhooks';
import { donationWebhookSecret, genericWebhookOff } from './donations/webhook-secret';
import { createMail } from './mail/create-mail';
import { createClaimLinkMailer } from './mail/claim-link-mail';
import { createWaitlistConfirmationMailer } from './mail/waitlist-confirmation-mail';
import { createDonationReceiptMailer } from './mail/donation-receipt-mail';
import { createDailySummaryMailer } from './mail/daily-summary-mail';
import { DAILY_SUMMARY_INTERVAL_MS, type DailySummaryJob, startDailySummaryJob } from './mail/daily-summary-job';
import { lookupKeysOf } from './auth/lookup-keys';
import { confirmPassword } from './auth/passwords';
import { createEventStreams } from './http/event-streams';
import { warmPages } from './http/warm-pages';

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
  // Given-events specifications hand in an in-memory store holding the history they start from.
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
  // Before an account exports or erases what its address made: signups and receipt addresses of
  // older logs get the notes the waitlist and donations write now (once per log).
  await ensureAddressRecords({ eventStore: peopleEventStore, lookupKeys, clock });
  const addressRecords = createAddressRecords({ eventStore: peopleEventStore, lookupKeys, clock });
  if (config.SEED_CATALOG) await seedCatalog({ eventStore, clock });

  const projectionLog = log.child({ component: 'projections' });
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
  const newId = randomUUID;
  const webhookSecret = donationWebhookSecret(config);
  // The features, each one module: its use cases, the handlers of its JSON routes, its projectors.
  const catalogue = catalogueModule({ commands, readModels, clock, newId });
  // Where features meet: fundraisers, the waitlist and fulfilment read the catalogue's entries;
  // fulfilment makes and hands over fundraisers through the fundraisers' port.
  const catalogueEntries = createCatalogueEntries(commands);
  const fundraiserQueries = createFundraiserQueries(readModels, clock);
  // The day's salt lives with the credentials (SQLite file or Redis), where every gateway sees it.
  const scanVisitors = createScanVisitors({ salts: credentials, clock });
  const fundraisers = fundraisersModule({
    commands,
    fundraisers: fundraiserQueries,
    catalogue: catalogueEntries,
    ingestion,
    visitors: scanVisitors,
    clock,
    newId,
  });
  const stripe = config.stripe && {
    client: createStripeClient(config.stripe),
    signer: createCheckoutSigner(config.stripe.secretKey),
    live: config.stripe.live,
    platformFeePercent: config.stripe.platformFeePercent,
  };
  const donations = donationsModule({
    commands,
    findFundraiser: fundraisers.useCases.get,
    charityName: async (id) => (await catalogue.queries.catalog.getCharity(id))?.name ?? null,
    checkoutSessions: createStripeCheckoutSessions(stripe, log.child({ component: 'stripe' })),
    chargeSettlements: createStripeChargeSettlements(stripe ? stripe.client : null, log.child({ component: 'stripe' })),
    payoutAccounts: createStripePayoutAccounts(stripe, config.PUBLIC_BASE_URL, log.child({ component: 'stripe' })),
    reportsNeedCheckout: stripe !== null,
    catalogue: catalogueEntries,
    // The outbox is made below, as it delivers the demo processor's webhooks to these donations.
    sendReceipt: (receipt) => mailReceipt(receipt),
    eventStore: peopleEventStore,
    personalData,
    addressRecords,
    clock,
    newId,
  });
  const donationWebhooks = createDonationWebhooks({ secret: webhookSecret, donations: donations.useCases });
  // Every gateway runs a sender; leases make sure only one of them works a given message.
  const mail = createMail(config, {
    clock,
    log: log.child({ component: 'mail' }),
    metrics,
    watchStore: storage.watchOutbox,
    webhooks: demoWebhookTransport({
      secret: webhookSecret,
      webhooks: donationWebhooks,
      log: log.child({ component: 'donations' }),
    }),
  });
  const mailReceipt = createDonationReceiptMailer({ email: mail.email });
  const accounts = createAccounts({ commands, clock, lookupKeys });
  const auth = createAuth(config, {
    clock,
    log,
    mail,
    credentials,
    isClosedAccount: (uid) => users.queries.users.isClosed(uid),
    lookupKeys,
  });

  const waitlist = waitlistModule({
    commands,
    catalogue: catalogueEntries,
    eventStore: peopleEventStore,
    readModels,
    clock,
    newId,
    sendConfirmationLink: createWaitlistConfirmationMailer({
      email: mail.email,
      publicBaseUrl: config.PUBLIC_BASE_URL,
      budget: auth.waitlistMailBudget,
    }),
    personalData,
    forgetMailTo: mail.forgetRecipient,
    lookupKeys,
    claimMailRemovalLinks: createClaimMailRemovalLinks(commands),
    linkSecret: auth.keyedHash('waitlist links'),
    addressRecords,
  });
  const users = usersModule({
    commands,
    eventStore: peopleEventStore,
    readModels,
    credentials,
    personalData,
    forgetMailTo: mail.forgetRecipient,
    removeWaitlistEntriesMadeWith: (address) => waitlist.useCases.removeEntriesMadeWith(address),
    eraseReceiptAddresses: (address) => donations.useCases.donors.eraseMadeWith(address),
    donationsMadeWith: (address) => donations.useCases.donors.madeWith(address),
    confirmPassword,
    fundraisersOf: (userId, caller) => fundraisers.useCases.userStats(userId, caller),
    personalRecordStreams: {
      waitlistEntrySteps: (entryId) => [fulfilmentStreamName(entryId), waitlistRemovalStreamName(entryId)],
      fundraiser: fundraiserStreamName,
    },
    addressRecords,
    lookupKeys,
    clock,
  });
  const fulfilment = fulfilmentModule({
    commands,
    fundraisers: createEntryFundraisers(commands),
    catalogue: catalogueEntries,
    readModels,
    reveal: (values) => personalData.reveal(values),
    clock,
    sendClaimLink: createClaimLinkMailer({ email: mail.email, publicBaseUrl: config.PUBLIC_BASE_URL }),
    addressOf: (uid) => accounts.addressOf(uid),
    shortCodeOf: fundraisers.useCases.shortCode,
  });
  const ownerMail = ownerMailModule({
    owners: createSummaryOwners(commands),
    fundraisers: fundraiserQueries,
    subscribers: () => users.queries.users.dailySummarySubscribers(),
    addressOf: (uid) => accounts.addressOf(uid),
    sign: auth.keyedHash('unsubscribe links'),
    sendDailySummary: createDailySummaryMailer({ email: mail.email, publicBaseUrl: config.PUBLIC_BASE_URL }),
    clock,
  });
  const analytics = analyticsModule({
    ingestion,
    readModels,
    ranked: {
      fundraisers: (ids) => fundraiserQueries.summaries(ids),
      charityNames: (ids) => catalogue.queries.catalog.charityNames(ids),
    },
    clock,
  });
  const adminAudit = adminAuditModule({ eventStore, readModels, clock });
  const modules = [catalogue, fundraisers, users, waitlist, analytics, adminAudit, donations, fulfilment, ownerMail];

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
  };
  // With PROJECTIONS=off the projector process runs them, and its own /readyz says how they are.
  if (runners.length > 0) dependencies.projections = () => projectionsRunning(runners);
  if (kafka) dependencies.kafka = () => kafka.reachable();
  /** Set once `listen` has warmed the server pages (or given up on it): until then not ready. */
  let pagesWarmed = false;
  dependencies.serverPages = async () => {
    if (!pagesWarmed) throw new Error('warming up');
  };
  const readiness = createReadiness(dependencies);
  if (config.demoProcessor) {
    log.warn(
      'the demo processor is on: anyone can make donations that charge nothing; they count as test money, ' +
        'never as money raised (DEMO_PROCESSOR=false turns it off)',
    );
  }
  const demoProcessor = config.demoProcessor
    ? createDemoProcessor({
        findFundraiser: fundraisers.useCases.get,
        newId,
        enqueue: ({ webhookId, body, summary }) =>
          mail.webhooks.send({ messageId: webhookId, to: DEMO_WEBHOOK_TARGET, subject: summary, body }),
      })
    : null;
  const rebuilds = createRebuildJobs({ eventStore, store: readModels, log: projectionLog, clock });
  const liveStreams = createEventStreams();
  const { app, frontDoor } = createApp({
    log,
    modules,
    auth: auth.options,
    maxBodyBytes: config.MAX_BODY_BYTES,
    trustProxy: config.TRUST_PROXY,
    metrics,
    clock,
    newId,
    publicBaseUrl: config.PUBLIC_BASE_URL,
    donationWebhooks,
    genericWebhookOff: genericWebhookOff(config),
    stripeWebhooks:
      config.stripe &&
      stripe &&
      createStripeWebhooks({
        stripe: stripe.client,
        signer: stripe.signer,
        secrets: [config.stripe.webhookSecret, config.stripe.connectWebhookSecret].filter(
          (secret) => secret !== undefined,
        ),
        donations: donations.useCases,
        payouts: donations.useCases.payouts,
      }),
    demoProcessor,
    eventStore: peopleEventStore,
    lookupKeys,
    accounts,
    useCases: {
      charities: catalogue.useCases.charities,
      fundraisers: fundraisers.useCases,
      waitlist: waitlist.useCases,
      fulfilment: fulfilment.useCases,
      adminAudit: adminAudit.useCases,
    },
    catalog: catalogue.queries.catalog,
    waitlist: waitlist.queries.waitlist,
    waitlistEntries: fulfilment.queries.waitlistEntries,
    admin: {
      adminEmails: config.ADMIN_EMAILS,
      projections: createProjectionMonitor({
        eventStore,
        store: readModels,
        projectors,
        runners: new Map(projections.map(({ projector, runner }) => [projector.name, runner])),
        rebuilds,
        clock,
      }),
      rebuilds,
      outbox: mail.outbox,
      stripeBooks: stripe ? { books: createStripeBooks(stripe.client), live: stripe.live } : null,
    },
    live: { changeFeed, streams: liveStreams },
    web: {
      widgetUrl: config.VITE_DONATION_WIDGET_URL,
      apiUrl: config.VITE_API_URL,
      demoMode: config.demoMode,
      stripePublishableKey: config.stripe?.publishableKey ?? null,
      stripePlatformFeePercent: config.stripe?.platformFeePercent ?? 0,
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
