import type {
  AdminAudit,
  CatalogQueries,
  CharityUseCases,
  Clock,
  CommandHandler,
  EventStore,
  FulfilmentUseCases,
  FundraiserUseCases,
  Ingestion,
  LookupKeys,
  WaitlistEntriesQueries,
  WaitlistQueries,
  WaitlistUseCases,
} from '@qrshirt/core';
import type { AccountClosing } from '../auth/account-closing';
import type { EmailChange } from '../auth/email-change';
import type { PersonalDataExporter } from '../auth/personal-data-export';
import type { DemoProcessor } from '../donations/demo-processor';
import type { DonationWebhooks } from '../donations/donation-webhooks';
import type { StripeWebhooks } from '../donations/stripe-webhooks';

/**
 * The use cases the gateway's own handlers call: those of the sign-in's credentials and mail, and
 * the features' whose routes need the request or the response (images, streams, CSV, the client's
 * address). Every other route is its feature module's.
 */
export interface UseCases {
  /** People close their accounts; operators erase people. */
  accountClosing: AccountClosing;
  /** People download what the shop holds about them. */
  dataExport: PersonalDataExporter;
  /** People move their account to another address, by a link mailed to it. */
  emailChange: EmailChange;
  charities: CharityUseCases;
  fundraisers: FundraiserUseCases;
  waitlist: WaitlistUseCases;
  /** Operators fulfil waitlist entries: CSV and QR sheets. */
  fulfilment: FulfilmentUseCases;
  /** Records which operator saw or downloaded names and emails, before they do. */
  adminAudit: AdminAudit;
}

/** What the gateway's route modules need; the composition root builds it once per process. */
export interface RouteDeps {
  clock: Clock;
  newId: () => string;
  eventStore: EventStore;
  commands: CommandHandler;
  ingestion: Ingestion;
  useCases: UseCases;
  catalog: CatalogQueries;
  waitlist: WaitlistQueries;
  /** Waitlist entries with their names, emails and statuses, for operators. */
  waitlistEntries: WaitlistEntriesQueries;
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
