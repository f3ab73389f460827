import { type FundraiserStats, fundraiserStats } from '@qrshirt/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { call } from '@/lib/api-client';

/** GET /api/admin/fundraisers/{id}/stats: a fundraiser's figures as its owner sees them, whoever owns it. */
function getFundraiserStats(fundraiserId: string): Promise<FundraiserStats> {
  return call('getAdminFundraiserStats', { params: { id: fundraiserId }, schema: fundraiserStats });
}

const fundraiserStatsQueryOptions = (fundraiserId: string) =>
  queryOptions({
    queryKey: ['admin', 'fundraiser-stats', fundraiserId],
    queryFn: () => getFundraiserStats(fundraiserId),
  });

/** Asks only once an id was given. */
export function useAdminFundraiserStats(fundraiserId: string) {
  return useQuery({ ...fundraiserStatsQueryOptions(fundraiserId), enabled: fundraiserId !== '' });
}
