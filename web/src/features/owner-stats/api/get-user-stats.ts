import { type UserStats, userStats } from '@qrshirt/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** GET /api/user/{id}/stats: the signed-in user's own impact. */
export function getUserStats(uid: string): Promise<UserStats> {
  return api(`/api/user/${encodeURIComponent(uid)}/stats`, { schema: userStats, requiresAuth: true });
}

export const userStatsQueryOptions = (uid: string) =>
  queryOptions({ queryKey: ['user-stats', uid], queryFn: () => getUserStats(uid) });

export function useUserStats(uid: string) {
  return useQuery(userStatsQueryOptions(uid));
}
