import type {
  AdminAudit,
  CharityUseCases,
  Clock,
  CommandHandler,
  DonationsModule,
  FulfilmentModule,
  FundraisersModule,
  OwnerMailModule,
  DonationUseCases,
  EventStore,
  FulfilmentUseCases,
  FundraiserUseCases,
  Ingestion,
  LookupKeys,
  OwnerMailUseCases,
  ShirtUseCases,
  UserUseCases,
  WaitlistUseCases,
  createRecordAnalytics,
  FundraiserQueries,
  CatalogQueries,
  WaitlistQueries,
} from '@qrshirt/core';
import type { AccountClosing } from '../auth/account-closing';
import type { EmailChange } from '../auth/email-change';
import type { PersonalDataExporter } from '../auth/personal-data-export';
import type { DemoProcessor } from '../donations/demo-processor';
import type { DonationWebhooks } from '../donations/donation-webhooks';
import type { StripeWebhooks } from '../donations/stripe-webhooks';

/** The domain's use cases, one set per feature; the composition root makes them once per process. */
export interface UseCases {
  users: UserUseCases;
  /** People close their accounts; operators erase people. */
  accountClosing: AccountClosing;
  /** People download what the shop holds about them. */
  dataExport: PersonalDataExporter;
  /** People move their account to another address, by a link mailed to it. */
  emailChange: EmailChange;
  charities: CharityUseCases;
  shirts: ShirtUseCases;
  fundraisers: FundraiserUseCases;
  donations: DonationUseCases;
  waitlist: WaitlistUseCases;
  /** Operators fulfil waitlist entries; their people claim the fundraisers. */
  fulfilment: FulfilmentUseCases;
  /** Owners' daily summary mail, and its unsubscribe link. */
  ownerMail: OwnerMailUseCases;
  recordAnalytics: ReturnType<typeof createRecordAnalytics>;
  /** Records which operator saw or downloaded names and emails, before they do. */
  adminAudit: AdminAudit;
}

/** The features' modules: each brings the handlers of the routes its use cases answer alone. */
export interface Modules {
  donations: DonationsModule;
  fundraisers: FundraisersModule;
  fulfilment: FulfilmentModule;
  ownerMail: OwnerMailModule;
}

/** What the route modules need; the composition root builds it once per process. */
export interface RouteDeps {
  modules: Modules;
  clock: Clock;
  newId: () => string;
  eventStore: EventStore;
  commands: CommandHandler;
  ingestion: Ingestion;
  useCases: UseCases;
  catalog: CatalogQueries;
  fundraiserQueries: FundraiserQueries;
  waitlist: WaitlistQueries;
  /** Verifies the donation processor's webhooks and hands them to the donation use cases. */
  donationWebhooks: DonationWebhooks;
  /** Verifies Stripe's webhooks and hands them to the donation use cases; null without Stripe. */
  stripeWebhooks: StripeWebhooks | null;
  /** The demo widget's processor; null when DEMO_PROCESSOR is off. */
  demoProcessor: DemoProcessor | null;
  /** PUBLIC_BASE_URL, without a trailing slash: where links and QR codes send people. */
  publicBaseUrl: string;
  /** What addresses and phone numbers are found by, in stream names, credentials and rate limits. */
  lookupKeys: LookupKeys;
}
