import { type CharityPayouts, charityPayouts } from '@qrshirt/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { call } from '@/lib/api-client';

/**
 * GET /api/charity/{id}/payouts: the Stripe account of a charity the member submitted, as Stripe
 * last described it (403 for anyone else's, 404 until an admin approves it).
 */
function getCharityPayouts(charityId: string): Promise<CharityPayouts> {
  return call('getOwnCharityPayouts', { params: { id: charityId }, schema: charityPayouts });
}

export const myCharityPayoutsQueryOptions = (charityId: string) =>
  queryOptions({ queryKey: ['my-charities', 'payouts', charityId], queryFn: () => getCharityPayouts(charityId) });

export function useMyCharityPayouts(charityId: string) {
  return useQuery(myCharityPayoutsQueryOptions(charityId));
}
