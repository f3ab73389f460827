import { type AdminFunnel, adminFunnel, type AdminFunnelQuery } from '@qrshirt/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { call } from '@/lib/api-client';

/** GET /api/admin/funnel: the steps per day and per shirt; the server picks the last 30 days when no range is given. */
function getFunnel(query: AdminFunnelQuery): Promise<AdminFunnel> {
  return call('getAdminFunnel', { query, schema: adminFunnel });
}

const funnelQueryOptions = (query: AdminFunnelQuery) =>
  queryOptions({ queryKey: ['admin', 'funnel', query], queryFn: () => getFunnel(query) });

export function useFunnel(query: AdminFunnelQuery) {
  // The charts stay on screen while another range or shirt loads.
  return useQuery({ ...funnelQueryOptions(query), placeholderData: keepPreviousData });
}
