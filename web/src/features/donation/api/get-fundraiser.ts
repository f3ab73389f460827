import { type Fundraiser, fundraiser } from '@qrshirt/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** GET /api/fundraisers/{id}: public, so a scanner's anonymous session can read it. */
export function getFundraiser(fundraiserId: string): Promise<Fundraiser> {
  return api(`/api/fundraisers/${encodeURIComponent(fundraiserId)}`, { schema: fundraiser });
}

export const fundraiserQueryOptions = (fundraiserId: string) =>
  queryOptions({ queryKey: ['fundraiser', fundraiserId], queryFn: () => getFundraiser(fundraiserId) });

export function useFundraiser(fundraiserId: string | undefined) {
  return useQuery({ ...fundraiserQueryOptions(fundraiserId ?? ''), enabled: Boolean(fundraiserId) });
}
