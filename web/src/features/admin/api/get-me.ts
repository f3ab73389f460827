import { useMe } from '@/lib/auth/me';

type AdminAccess = 'checking' | 'admin' | 'not-admin' | 'failed';

/** Whether the signed-in user (none: undefined) may use the admin area; anyone else is 'not-admin'. */
export function useAdminAccess(uid: string | undefined): AdminAccess {
  const answer = useMe(uid);
  if (uid === undefined) return 'not-admin';
  if (answer.isPending) return 'checking';
  if (answer.isError) return 'failed';
  return answer.data.admin ? 'admin' : 'not-admin';
}
