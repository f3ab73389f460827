import { type ConfirmedWaitlistEntry, confirmedWaitlistEntry } from '@qrshirt/contracts';
import { useMutation } from '@tanstack/react-query';
import { call } from '@/lib/api-client';

/** POST /api/waitlist/confirm: the token of the link the signup mailed. */
function confirmWaitlistEntry(token: string): Promise<ConfirmedWaitlistEntry> {
  return call('confirmWaitlistEntry', { body: { token }, schema: confirmedWaitlistEntry });
}

export function useConfirmWaitlistEntry() {
  return useMutation({ mutationFn: confirmWaitlistEntry });
}
