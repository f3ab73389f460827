import { type CharityPayouts, charityPayouts } from '@qrshirt/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { call } from '@/lib/api-client';

/** GET /api/admin/charities/{id}/payouts: the charity's Stripe account as Stripe last described it (404 unless approved). */
function getCharityPayouts(charityId: string): Promise<CharityPayouts> {
  return call('getCharityPayouts', { params: { id: charityId }, schema: charityPayouts });
}

export const charityPayoutsQueryOptions = (charityId: string) =>
  queryOptions({ queryKey: ['admin', 'charity-payouts', charityId], queryFn: () => getCharityPayouts(charityId) });

export function useCharityPayouts(charityId: string) {
  return useQuery(charityPayoutsQueryOptions(charityId));
}
