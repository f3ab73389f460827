import { type Me, me } from '@qrshirt/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** GET /api/me: who the signed-in user is to the server, and whether the admin area is theirs. */
export function getMe(): Promise<Me> {
  return api('/api/me', { schema: me, requiresAuth: true });
}

/** Per user: after a sign-out and another sign-in, the next user is asked afresh. */
export const meQueryOptions = (uid: string) => queryOptions({ queryKey: ['me', uid], queryFn: getMe, staleTime: 5 * 60_000 });

export type AdminAccess = 'checking' | 'admin' | 'not-admin' | 'failed';

/** Whether the signed-in user (none: undefined) may use the admin area; anyone else is 'not-admin'. */
export function useAdminAccess(uid: string | undefined): AdminAccess {
  const answer = useQuery({ ...meQueryOptions(uid ?? ''), enabled: uid !== undefined });
  if (uid === undefined) return 'not-admin';
  if (answer.isPending) return 'checking';
  if (answer.isError) return 'failed';
  return answer.data.admin ? 'admin' : 'not-admin';
}
