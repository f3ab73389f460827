import type { Clock, CommandHandler, EventStore, Ingestion } from '@qrshirt/core';
import type { CatalogQueries, FundraiserQueries, WaitlistQueries } from '@qrshirt/projections';

/** What the route modules need; the composition root builds it once per process. */
export interface RouteDeps {
  clock: Clock;
  newId: () => string;
  eventStore: EventStore;
  commands: CommandHandler;
  ingestion: Ingestion;
  catalog: CatalogQueries;
  fundraisers: FundraiserQueries;
  waitlist: WaitlistQueries;
  /** PUBLIC_BASE_URL, without a trailing slash: where links and QR codes send people. */
  publicBaseUrl: string;
}
