import { type JoinWaitlistAnswer, joinWaitlistAnswer, type JoinWaitlistRequest } from '@qrshirt/contracts';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** POST /api/waitlist; the answer's data echoes the name, email and size that were stored. */
export function joinWaitlist(input: JoinWaitlistRequest): Promise<JoinWaitlistAnswer> {
  return api('/api/waitlist', { method: 'POST', body: input, schema: joinWaitlistAnswer });
}

export function useJoinWaitlist() {
  return useMutation({ mutationFn: joinWaitlist });
}
