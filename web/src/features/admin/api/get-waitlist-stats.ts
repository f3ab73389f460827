import { type AdminWaitlistStats, adminWaitlistStats } from '@qrshirt/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { call } from '@/lib/api-client';

/** GET /api/admin/waitlist: counts per shirt, size and charity, with their names. */
function getWaitlistStats(): Promise<AdminWaitlistStats> {
  return call('getAdminWaitlistStats', { schema: adminWaitlistStats });
}

const waitlistStatsQueryOptions = () =>
  queryOptions({ queryKey: ['admin', 'waitlist', 'stats'], queryFn: getWaitlistStats });

export function useWaitlistStats() {
  return useQuery(waitlistStatsQueryOptions());
}
