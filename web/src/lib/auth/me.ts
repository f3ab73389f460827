import { type Me, me } from '@qrshirt/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { call } from '@/lib/api-client';

/** GET /api/me: who the signed-in user is to the server: admin or not, address verified or not. */
function getMe(): Promise<Me> {
  return call('getMe', { schema: me });
}

/** Per user: after a sign-out and another sign-in, the next user is asked afresh. */
const meQueryOptions = (uid: string) => queryOptions({ queryKey: ['me', uid], queryFn: getMe, staleTime: 5 * 60_000 });

/** The signed-in user's `me` (none signed in: not asked). */
export function useMe(uid: string | undefined) {
  return useQuery({ ...meQueryOptions(uid ?? ''), enabled: uid !== undefined });
}
