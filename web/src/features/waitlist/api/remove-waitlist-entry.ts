import { type RemovedWaitlistEntry, removedWaitlistEntry } from '@qrshirt/contracts';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** POST /api/waitlist/remove: the token of the removal link a waitlist mail carried. */
export function removeWaitlistEntry(token: string): Promise<RemovedWaitlistEntry> {
  return api('/api/waitlist/remove', { method: 'POST', body: { token }, schema: removedWaitlistEntry });
}

export function useRemoveWaitlistEntry() {
  return useMutation({ mutationFn: removeWaitlistEntry });
}
