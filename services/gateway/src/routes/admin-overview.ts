import type { Handlers } from '../http/route-table';
import type { AdminDeps } from './admin-deps';

export function adminOverviewHandlers({
  admin,
}: {
  admin: AdminDeps;
}): Pick<Handlers, 'getAdminOverview' | 'getAdminFunnel'> {
  return {
    async getAdminOverview({ query }) {
      return { status: 200, body: await admin.overview.getOverview(query.top) };
    },
    async getAdminFunnel({ query }) {
      return { status: 200, body: await admin.funnel(query) };
    },
  };
}
