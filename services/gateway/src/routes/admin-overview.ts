import type { Handlers } from '../http/route-table';
import type { AdminDeps } from './admin-deps';

export function adminOverviewHandlers({ admin }: { admin: AdminDeps }): Pick<Handlers, 'getAdminOverview'> {
  return {
    async getAdminOverview({ query }) {
      return { status: 200, body: await admin.overview.getOverview(query.top) };
    },
  };
}
