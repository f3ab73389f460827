import { type FundraiserDetails, fundraiserDetails } from '@qrshirt/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { call } from '@/lib/api-client';

/**
 * GET /api/fundraisers/{id}: public, so a scanner's anonymous session can read it; with the goal,
 * the confirmed money, and whether the fundraiser is the caller's (`owned`), never whose it is.
 */
function getFundraiser(fundraiserId: string): Promise<FundraiserDetails> {
  return call('getFundraiser', { params: { id: fundraiserId }, schema: fundraiserDetails });
}

/**
 * Keyed by whom it is read for as well (`viewer`, the uid of the account signed in; null for
 * nobody in particular): the answer's `owned` is the caller's, so the fundraiser read for nobody
 * (the server's render of the landing, a visitor's page) never stands in for the owner's, nor one
 * account's for the next one signed in on the same page.
 */
export const fundraiserQueryOptions = (fundraiserId: string, viewer: string | null) =>
  queryOptions({ queryKey: ['fundraiser', fundraiserId, { viewer }], queryFn: () => getFundraiser(fundraiserId) });

/** What the page shows of the fundraiser, the same for everyone: its `owned` is not to be read. */
export function useFundraiser(fundraiserId: string | undefined) {
  return useQuery({ ...fundraiserQueryOptions(fundraiserId ?? '', null), enabled: Boolean(fundraiserId) });
}

/**
 * Whether the account signed in (`viewer`) owns the fundraiser, as the gateway answers that
 * account. Nothing is asked for nobody: a visitor, signed out or anonymous, owns nothing.
 */
export function useOwnsFundraiser(fundraiserId: string, viewer: string | null): boolean {
  const owned = useQuery({
    ...fundraiserQueryOptions(fundraiserId, viewer),
    enabled: viewer !== null,
    select: (fundraiser) => fundraiser.owned,
  });
  return viewer !== null && owned.data === true;
}
