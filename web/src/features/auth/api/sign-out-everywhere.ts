import { useMutation } from '@tanstack/react-query';
import { call } from '@/lib/api-client';

/**
 * POST /api/auth/signout-everywhere: ends every session of the signed-in account (other devices,
 * a forgotten shared computer) and this one, whose cookie the answer clears; the caller then signs out.
 */
async function signOutEverywhere(): Promise<void> {
  await call('signOutEverywhere');
}

export function useSignOutEverywhere() {
  return useMutation({ mutationFn: signOutEverywhere });
}
