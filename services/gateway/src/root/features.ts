import { randomUUID } from 'node:crypto';
import {
  adminAuditModule,
  analyticsModule,
  catalogueModule,
  createAccounts,
  type AddressRecords,
  createAddressRecords,
  createCatalogueEntries,
  createClaimMailRemovalLinks,
  createEntryFundraisers,
  createFundraiserQueries,
  createScanVisitors,
  createSummaryOwners,
  donationsModule,
  ensureAddressRecords,
  fulfilmentModule,
  fulfilmentStreamName,
  fundraiserStreamName,
  fundraisersModule,
  ownerMailModule,
  seedCatalog,
  usersModule,
  waitlistModule,
  waitlistRemovalStreamName,
} from '@qrshirt/core';
import type { ProjectionMonitor, RebuildJobs } from '@qrshirt/projections';
import { createApp } from '../app';
import { createAuth } from '../auth/create-auth';
import { confirmPassword } from '../auth/passwords';
import type { Config } from '../config';
import { createDemoProcessor, DEMO_WEBHOOK_TARGET, demoWebhookTransport } from '../donations/demo-processor';
import { createDonationWebhooks } from '../donations/donation-webhooks';
import { createStripeBooks } from '../donations/stripe-books';
import { createStripeChargeSettlements } from '../donations/stripe-charge-settlements';
import { createStripeCheckoutSessions } from '../donations/stripe-checkout';
import { createStripePayoutAccounts } from '../donations/stripe-payout-accounts';
import { createStripeWebhooks } from '../donations/stripe-webhooks';
import { donationWebhookSecret, genericWebhookOff } from '../donations/webhook-secret';
import type { EventStreams } from '../http/event-streams';
import { createProofOfWork } from '../http/proof-of-work';
import { createClaimLinkMailer } from '../mail/claim-link-mail';
import { createMail } from '../mail/create-mail';
import { createDailySummaryMailer } from '../mail/daily-summary-mail';
import { createDonationReceiptMailer } from '../mail/donation-receipt-mail';
import { createWaitlistConfirmationMailer } from '../mail/waitlist-confirmation-mail';
import type { Infrastructure } from './infrastructure';

/** The shop's side: the catalogue and the fundraisers, with the ports the others read them by. */
function shopFeatures({ commands, readModels, credentials, ingestion, clock }: Infrastructure, newId: () => string) {
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
  return { catalogue, catalogueEntries, fundraiserQueries, scanVisitors, fundraisers };
}

/**
 * The money's side: donations and their webhooks, and the outbox that mails their receipts (and
 * delivers the demo processor's webhooks).
 */
function moneyFeatures(
  config: Config,
  infrastructure: Infrastructure,
  { catalogue, catalogueEntries, fundraisers }: ReturnType<typeof shopFeatures>,
  addressRecords: AddressRecords,
  newId: () => string,
) {
  const { log, metrics, clock, storage, commands, peopleEventStore, personalData, stripe } = infrastructure;
  const webhookSecret = donationWebhookSecret(config);
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
  return { donations, donationWebhooks, mail, demoProcessor };
}

/**
 * The composition root's second room: the features, each one module (its use cases, the
 * handlers of its JSON routes, its projectors), and the ports by which they meet, on the
 * stores the first room opened.
 */
export async function buildFeatures(config: Config, infrastructure: Infrastructure) {
  const { log, clock, eventStore, lookupKeys, readModels, credentials, personalData } = infrastructure;
  const { peopleEventStore, commands, ingestion } = infrastructure;
  // Before an account exports or erases what its address made: signups and receipt addresses of
  // older logs get the notes the waitlist and donations write now (once per log).
  await ensureAddressRecords({ eventStore: peopleEventStore, lookupKeys, clock });
  const addressRecords = createAddressRecords({ eventStore: peopleEventStore, lookupKeys, clock });
  if (config.SEED_CATALOG) await seedCatalog({ eventStore, clock });
  const newId = randomUUID;
  const shop = shopFeatures(infrastructure, newId);
  const { catalogue, catalogueEntries, fundraiserQueries, scanVisitors, fundraisers } = shop;
  const money = moneyFeatures(config, infrastructure, shop, addressRecords, newId);
  const { donations, donationWebhooks, mail, demoProcessor } = money;
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

  const people = { waitlist, fulfilment, ownerMail, adminAudit, accounts, auth };
  /** After the requests and the batchers, before the stores. */
  async function close() {
    scanVisitors.close();
    await auth.close();
    await mail.close();
  }
  return { newId, modules, catalogue, fundraisers, donations, donationWebhooks, demoProcessor, mail, ...people, close };
}

export type Features = Awaited<ReturnType<typeof buildFeatures>>;

/** The features' HTTP face: their routes, pages, webhooks and the admins' views of the process. */
export function createFeaturesApp(
  config: Config,
  infrastructure: Infrastructure,
  features: Features,
  process: { projections: ProjectionMonitor; rebuilds: RebuildJobs; streams: EventStreams },
) {
  const { log, metrics, clock, peopleEventStore, lookupKeys, credentials, stripe, changeFeed } = infrastructure;
  const { newId, modules, catalogue, fundraisers, donations, waitlist, fulfilment, adminAudit, auth, mail } = features;
  const { donationWebhooks, demoProcessor, accounts } = features;
  return createApp({
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
      projections: process.projections,
      rebuilds: process.rebuilds,
      outbox: mail.outbox,
      stripeBooks: stripe ? { books: createStripeBooks(stripe.client), live: stripe.live } : null,
    },
    live: { changeFeed, streams: process.streams },
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
}
