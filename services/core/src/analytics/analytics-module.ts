import type { adminFunnelRoutes, adminOverviewRoutes, analyticsRoutes } from '@qrshirt/contracts';
import type { Clock } from '../kit/clock';
import type { FeatureModule } from '../kit/feature-module';
import type { FeatureHandlers } from '../kit/route-handler';
import type { Ingestion } from '../ports/ingestion';
import type { RankedDetails } from '../ports/ranked-details';
import type { ReadModelStore } from '../ports/read-model-store';
import { funnelProjector } from './funnel-projector';
import { createFunnelQueries } from './funnel-queries';
import { overviewProjector } from './overview-projector';
import { createOverviewQueries } from './overview-queries';
import { createRecordAnalytics } from './record-analytics';

/** The web client's analytics events, and the admins' overview and funnel read from them. */
export function analyticsModule({
  ingestion,
  readModels,
  ranked,
  clock,
}: {
  ingestion: Ingestion;
  readModels: ReadModelStore;
  /** What the overview shows of the fundraisers and charities it ranks. */
  ranked: RankedDetails;
  clock: Clock;
}) {
  const record = createRecordAnalytics({ ingestion, clock });
  const overview = createOverviewQueries(readModels, ranked);
  const funnel = createFunnelQueries(readModels);
  const handlers: FeatureHandlers<typeof analyticsRoutes & typeof adminOverviewRoutes & typeof adminFunnelRoutes> = {
    async recordAnalytics({ body }) {
      return { status: 202, body: await record(body.events) };
    },
    async getAdminOverview({ query }) {
      return { status: 200, body: await overview.getOverview(query.top) };
    },
    async getAdminFunnel({ query }) {
      // The range defaults from today's date.
      return { status: 200, body: await funnel.getFunnel(query, clock()) };
    },
  };
  return {
    name: 'analytics',
    handlers,
    projectors: [overviewProjector, funnelProjector],
    queries: { overview, funnel },
    useCases: { record },
  } satisfies FeatureModule;
}

export type AnalyticsModule = ReturnType<typeof analyticsModule>;
