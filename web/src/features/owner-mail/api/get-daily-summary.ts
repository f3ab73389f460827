import { type User, user } from '@qrshirt/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { call } from '@/lib/api-client';

/** GET /api/user/{id}: the signed-in user's own profile, of which the daily summary choice. */
function getProfile(uid: string): Promise<User> {
  return call('getUser', { params: { id: uid }, schema: user });
}

export const profileQueryOptions = (uid: string) =>
  queryOptions({ queryKey: ['profile', uid], queryFn: () => getProfile(uid) });

export function useDailySummary(uid: string) {
  return useQuery({ ...profileQueryOptions(uid), select: (profile) => profile.dailySummary });
}
