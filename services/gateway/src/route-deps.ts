import type {
  Accounts,
  AdminAudit,
  CatalogQueries,
  CharityUseCases,
  Clock,
  EventStore,
  FulfilmentUseCases,
  FundraiserUseCases,
  LookupKeys,
  WaitlistEntriesQueries,
  WaitlistQueries,
  WaitlistUseCases,
} from '@qrshirt/core';

/**
 * The use cases the gateway's own handlers call: the features' whose routes need the request or
 * the response (images, streams, CSV, the client's address). Every other route is its feature
 * module's.
 */
export interface UseCases {
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
  useCases: UseCases;
  catalog: CatalogQueries;
  waitlist: WaitlistQueries;
  /** Waitlist entries with their names, emails and statuses, for operators. */
  waitlistEntries: WaitlistEntriesQueries;
  /** PUBLIC_BASE_URL, without a trailing slash: where links and QR codes send people. */
  publicBaseUrl: string;
  /** What addresses and phone numbers are found by, in stream names, credentials and rate limits. */
  lookupKeys: LookupKeys;
  /** The sign-ins and addresses the log records: sign-in and the admin check share this one. */
  accounts: Accounts;
}
