import { type AdminProjections, adminProjections } from '@qrshirt/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { call } from '@/lib/api-client';

/** Lag changes by the second: the page follows it while it is open. */
const REFRESH_MS = 5_000;

/** GET /api/admin/projections: each projection's checkpoint, lag, state and last rebuild. */
function getProjections(): Promise<AdminProjections> {
  return call('listProjections', { schema: adminProjections });
}

const projectionsQueryOptions = () =>
  queryOptions({ queryKey: ['admin', 'projections'], queryFn: getProjections, refetchInterval: REFRESH_MS });

export function useProjections() {
  return useQuery(projectionsQueryOptions());
}
