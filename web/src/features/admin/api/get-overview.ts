import { type AdminOverview, adminOverview } from '@qrshirt/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** How many fundraisers and charities the overview ranks. */
export const OVERVIEW_TOP = 10;

/** GET /api/admin/overview: totals, per-day series and the top fundraisers and charities. */
export function getOverview(top = OVERVIEW_TOP): Promise<AdminOverview> {
  return api(`/api/admin/overview?top=${top}`, { schema: adminOverview, requiresAuth: true });
}

export const overviewQueryOptions = () =>
  queryOptions({ queryKey: ['admin', 'overview'], queryFn: () => getOverview() });

export function useOverview() {
  return useQuery(overviewQueryOptions());
}
