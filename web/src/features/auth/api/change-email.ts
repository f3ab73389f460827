import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** POST /api/user/{id}/email: mails a link to the new address; the account moves once it is followed. */
export function requestEmailChange(uid: string, email: string): Promise<void> {
  return api(`/api/user/${encodeURIComponent(uid)}/email`, { method: 'POST', requiresAuth: true, body: { email } });
}

export function useRequestEmailChange(uid: string) {
  return useMutation({ mutationFn: (email: string) => requestEmailChange(uid, email) });
}
