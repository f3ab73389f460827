import { type FundraiserDetails, fundraiserDetails } from '@qrshirt/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { call } from '@/lib/api-client';

/** GET /api/fundraisers/{id}: public, so a scanner's anonymous session can read it; with the goal and confirmed money. */
function getFundraiser(fundraiserId: string): Promise<FundraiserDetails> {
  return call('getFundraiser', { params: { id: fundraiserId }, schema: fundraiserDetails });
}

export const fundraiserQueryOptions = (fundraiserId: string) =>
  queryOptions({ queryKey: ['fundraiser', fundraiserId], queryFn: () => getFundraiser(fundraiserId) });

export function useFundraiser(fundraiserId: string | undefined) {
  return useQuery({ ...fundraiserQueryOptions(fundraiserId ?? ''), enabled: Boolean(fundraiserId) });
}
