import { type UnsubscribeAnswer, unsubscribeAnswer } from '@qrshirt/contracts';
import { useMutation } from '@tanstack/react-query';
import { call } from '@/lib/api-client';

/** POST /api/unsubscribe: the daily summary's link stops it, signed in or not. */
function unsubscribe(token: string): Promise<UnsubscribeAnswer> {
  return call('unsubscribe', { body: { token }, schema: unsubscribeAnswer });
}

export function useUnsubscribe() {
  return useMutation({ mutationFn: unsubscribe });
}
