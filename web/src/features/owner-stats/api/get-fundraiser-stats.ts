import { type FundraiserStats, fundraiserStats } from '@qrshirt/contracts';
import { type QueryClient, queryOptions, useQueries, useQuery } from '@tanstack/react-query';
import { call } from '@/lib/api-client';

/** GET /api/fundraisers/{id}/stats: owner only, with the per-day series. */
function getFundraiserStats(fundraiserId: string): Promise<FundraiserStats> {
  return call('getFundraiserStats', { params: { id: fundraiserId }, schema: fundraiserStats });
}

export const fundraiserStatsQueryOptions = (fundraiserId: string) =>
  queryOptions({ queryKey: ['fundraiser-stats', fundraiserId], queryFn: () => getFundraiserStats(fundraiserId) });

/** Only the owner may fetch them (spec section 6), so the caller says whether this user is the owner. */
export function useFundraiserStats(fundraiserId: string, isOwner: boolean) {
  return useQuery({ ...fundraiserStatsQueryOptions(fundraiserId), enabled: isOwner });
}

export function useManyFundraiserStats(fundraiserIds: string[]) {
  return useQueries({ queries: fundraiserIds.map((id) => fundraiserStatsQueryOptions(id)) });
}

/** The owner's figures as shown right now (undefined before they loaded), to tell later whether they moved. */
export function statsShown(queryClient: QueryClient, fundraiserId: string): FundraiserStats | undefined {
  return queryClient.getQueryData<FundraiserStats>(fundraiserStatsQueryOptions(fundraiserId).queryKey);
}

/**
 * A donation the page just reported shows at once in the owner's figures as awaiting confirmation
 * (never as raised: only the processor's confirmation makes it that), without waiting for the read
 * model to catch up. `shownWhenDonated` is `statsShown` at the moment the widget reported it: if
 * the figures have been replaced since (a live update or a refetch got there first), they already
 * count this report, or its confirmation, and adding it would count it twice.
 */
export function addReportedDonationToStats(
  queryClient: QueryClient,
  fundraiserId: string,
  amount: number,
  shownWhenDonated: FundraiserStats | undefined,
): void {
  queryClient.setQueryData<FundraiserStats>(fundraiserStatsQueryOptions(fundraiserId).queryKey, (stats) => {
    if (!stats || (shownWhenDonated !== undefined && stats !== shownWhenDonated)) return stats;
    return { ...stats, amountReported: Math.round((stats.amountReported + amount) * 100) / 100 };
  });
  void queryClient.invalidateQueries({ queryKey: ['user-stats'] });
}
