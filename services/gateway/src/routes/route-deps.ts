import type { Clock, CommandHandler, EventStore, Ingestion } from '@qrshirt/core';
import type { CatalogQueries, FundraiserQueries, UserQueries, WaitlistQueries } from '@qrshirt/projections';

/** What the route modules need; the composition root builds it once per process. */
export interface RouteDeps {
  clock: Clock;
  newId: () => string;
  eventStore: EventStore;
  commands: CommandHandler;
  ingestion: Ingestion;
  catalog: CatalogQueries;
  fundraisers: FundraiserQueries;
  users: UserQueries;
  waitlist: WaitlistQueries;
}
