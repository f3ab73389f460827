import { type AdminOverview, adminOverview } from '@qrshirt/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { call } from '@/lib/api-client';

/** How many fundraisers and charities the overview ranks. */
const OVERVIEW_TOP = 10;

/** GET /api/admin/overview: totals, per-day series and the top fundraisers and charities. */
function getOverview(top = OVERVIEW_TOP): Promise<AdminOverview> {
  return call('getAdminOverview', { query: { top }, schema: adminOverview });
}

const overviewQueryOptions = () => queryOptions({ queryKey: ['admin', 'overview'], queryFn: () => getOverview() });

export function useOverview() {
  return useQuery(overviewQueryOptions());
}
