import { type ConfirmedWaitlistEntry, confirmedWaitlistEntry } from '@qrshirt/contracts';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** POST /api/waitlist/confirm: the token of the link the signup mailed. */
export function confirmWaitlistEntry(token: string): Promise<ConfirmedWaitlistEntry> {
  return api('/api/waitlist/confirm', { method: 'POST', body: { token }, schema: confirmedWaitlistEntry });
}

export function useConfirmWaitlistEntry() {
  return useMutation({ mutationFn: confirmWaitlistEntry });
}
