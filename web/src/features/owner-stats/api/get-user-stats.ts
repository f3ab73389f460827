import { type UserStats, userStats } from '@qrshirt/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { call } from '@/lib/api-client';

/** GET /api/user/{id}/stats: the signed-in user's own impact. */
function getUserStats(uid: string): Promise<UserStats> {
  return call('getUserStats', { params: { id: uid }, schema: userStats });
}

export const userStatsQueryOptions = (uid: string) =>
  queryOptions({ queryKey: ['user-stats', uid], queryFn: () => getUserStats(uid) });

export function useUserStats(uid: string) {
  return useQuery(userStatsQueryOptions(uid));
}
