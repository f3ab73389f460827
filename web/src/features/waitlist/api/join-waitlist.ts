import {
  type JoinWaitlistAnswer,
  joinWaitlistAnswer,
  type JoinWaitlistRequest,
  PROOF_OF_WORK_HEADER,
} from '@qrshirt/contracts';
import { useMutation } from '@tanstack/react-query';
import { call } from '@/lib/api-client';

/** POST /api/waitlist with a solved proof of work; the answer's data echoes the name, email and size that were stored. */
function joinWaitlist(input: JoinWaitlistRequest, proofOfWork: string): Promise<JoinWaitlistAnswer> {
  return call('joinWaitlist', {
    body: input,
    headers: { [PROOF_OF_WORK_HEADER]: proofOfWork },
    schema: joinWaitlistAnswer,
  });
}

/** Solves the proof of work (`solve`) as part of sending, so the form says "Joining Waitlist..." throughout. */
export function useJoinWaitlist(solve: () => Promise<string>) {
  return useMutation({ mutationFn: async (input: JoinWaitlistRequest) => joinWaitlist(input, await solve()) });
}
