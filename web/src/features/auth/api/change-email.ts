import { useMutation } from '@tanstack/react-query';
import { call } from '@/lib/api-client';

/** POST /api/user/{id}/email: mails a link to the new address; the account moves once it is followed. */
function requestEmailChange(uid: string, email: string): Promise<void> {
  return call('changeEmail', { params: { id: uid }, body: { email } });
}

export function useRequestEmailChange(uid: string) {
  return useMutation({ mutationFn: (email: string) => requestEmailChange(uid, email) });
}
