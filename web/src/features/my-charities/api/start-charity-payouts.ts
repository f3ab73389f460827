import { charityPayoutsOnboarding } from '@qrshirt/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '@/lib/api-client';
import { myCharityPayoutsQueryOptions } from './get-charity-payouts';

/**
 * POST /api/charity/{id}/payouts: opens the charity's Stripe account unless it has one, and
 * answers a fresh single-use link to Stripe's onboarding, which returns to the member's page.
 */
async function startCharityPayouts(charityId: string): Promise<string> {
  const { url } = await call('startOwnCharityPayouts', { params: { id: charityId }, schema: charityPayoutsOnboarding });
  return url;
}

export function useStartMyCharityPayouts(charityId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => startCharityPayouts(charityId),
    // The first call opens the account even when Stripe then fails the link: the page shows it.
    onSettled: () => queryClient.invalidateQueries({ queryKey: myCharityPayoutsQueryOptions(charityId).queryKey }),
  });
}
