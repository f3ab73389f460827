import { type FundraiserStats, fundraiserStats } from '@qrshirt/contracts';
import { type QueryClient, queryOptions, useQueries, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** GET /api/fundraisers/{id}/stats: owner only, with the per-day series. */
export function getFundraiserStats(fundraiserId: string): Promise<FundraiserStats> {
  return api(`/api/fundraisers/${encodeURIComponent(fundraiserId)}/stats`, {
    schema: fundraiserStats,
    requiresAuth: true,
  });
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

/** How many donations the owner's figures count right now (undefined before they loaded). */
export function donationsShown(queryClient: QueryClient, fundraiserId: string): number | undefined {
  return queryClient.getQueryData<FundraiserStats>(fundraiserStatsQueryOptions(fundraiserId).queryKey)?.donations;
}

/**
 * A donation just recorded shows at once in the owner's figures, without waiting for the read
 * model to catch up. `shownWhenDonated` is `donationsShown` at the moment the widget reported it:
 * if the figures have counted more donations since (a live update or a refetch got there
 * first), they already include this one and adding it again would count it twice.
 */
export function addDonationToStats(
  queryClient: QueryClient,
  fundraiserId: string,
  amount: number,
  shownWhenDonated: number | undefined,
): void {
  queryClient.setQueryData<FundraiserStats>(fundraiserStatsQueryOptions(fundraiserId).queryKey, (stats) => {
    if (!stats || (shownWhenDonated !== undefined && stats.donations > shownWhenDonated)) return stats;
    return {
      ...stats,
      donations: stats.donations + 1,
      amountRaised: Math.round((stats.amountRaised + amount) * 100) / 100,
    };
  });
  void queryClient.invalidateQueries({ queryKey: ['user-stats'] });
}
