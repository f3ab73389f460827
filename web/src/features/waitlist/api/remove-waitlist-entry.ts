import { type RemovedWaitlistEntry, removedWaitlistEntry } from '@qrshirt/contracts';
import { useMutation } from '@tanstack/react-query';
import { call } from '@/lib/api-client';

/** POST /api/waitlist/remove: the token of the removal link a waitlist mail carried. */
function removeWaitlistEntry(token: string): Promise<RemovedWaitlistEntry> {
  return call('removeWaitlistEntry', { body: { token }, schema: removedWaitlistEntry });
}

export function useRemoveWaitlistEntry() {
  return useMutation({ mutationFn: removeWaitlistEntry });
}
