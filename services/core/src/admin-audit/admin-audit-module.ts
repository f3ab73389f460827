import type { adminAuditRoutes } from '@qrshirt/contracts';
import type { Clock } from '../kit/clock';
import type { EventStore } from '../kit/event-store';
import type { FeatureModule } from '../kit/feature-module';
import type { FeatureHandlers } from '../kit/route-handler';
import type { ReadModelStore } from '../ports/read-model-store';
import { createAdminAudit } from './admin-audit';
import { adminAuditProjector } from './admin-audit-projector';
import { createAdminAuditQueries } from './admin-audit-queries';

/**
 * The audit trail: which operator revealed, downloaded or erased people's data, and when. Its use
 * case records before the data is shown; the routes that show it are the gateway's or other
 * features', which take `useCases` as their dependency.
 */
export function adminAuditModule({
  eventStore,
  readModels,
  clock,
}: {
  eventStore: EventStore;
  readModels: ReadModelStore;
  clock: Clock;
}) {
  const useCases = createAdminAudit({ eventStore, clock });
  const audit = createAdminAuditQueries(readModels);
  const handlers: FeatureHandlers<typeof adminAuditRoutes> = {
    async listAdminAudit({ query }) {
      return { status: 200, body: await audit.page(query) };
    },
  };
  return {
    name: 'admin-audit',
    handlers,
    projectors: [adminAuditProjector],
    queries: { audit },
    useCases,
  } satisfies FeatureModule;
}

export type AdminAuditModule = ReturnType<typeof adminAuditModule>;
