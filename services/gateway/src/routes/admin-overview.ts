import type { adminOverviewRoutes, adminFunnelRoutes } from '@qrshirt/contracts';
import type { HandlersOf } from '../http/route-table';
import type { AdminDeps } from './admin-deps';

export function adminOverviewHandlers({
  admin,
}: {
  admin: AdminDeps;
}): HandlersOf<typeof adminOverviewRoutes & typeof adminFunnelRoutes> {
  return {
    async getAdminOverview({ query }) {
      return { status: 200, body: await admin.overview.getOverview(query.top) };
    },
    async getAdminFunnel({ query }) {
      return { status: 200, body: await admin.funnel(query) };
    },
  };
}
