import { charityPayoutsOnboarding } from '@qrshirt/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '@/lib/api-client';
import { charityPayoutsQueryOptions } from './get-charity-payouts';

/**
 * POST /api/admin/charities/{id}/payouts: opens the charity's Stripe account unless it has one,
 * and answers a fresh single-use link to Stripe's onboarding for it (503 without Stripe).
 */
async function startCharityPayouts(charityId: string): Promise<string> {
  const { url } = await call('startCharityPayouts', { params: { id: charityId }, schema: charityPayoutsOnboarding });
  return url;
}

export function useStartCharityPayouts(charityId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => startCharityPayouts(charityId),
    // The first call opens the account even when Stripe then fails the link: the page shows it.
    onSettled: () => queryClient.invalidateQueries({ queryKey: charityPayoutsQueryOptions(charityId).queryKey }),
  });
}
