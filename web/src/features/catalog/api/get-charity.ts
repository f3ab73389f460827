import { type Charity, charity } from '@qrshirt/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { call } from '@/lib/api-client';
import { cachedFetch, cacheKeys, cacheTtl } from '@/lib/cache';

/** GET /api/charity/{id}, through the local cache (60 min). */
function getCharity(charityId: string): Promise<Charity> {
  return cachedFetch(cacheKeys.charity(charityId), cacheTtl.charity, charity, () =>
    call('getCharity', { params: { id: charityId }, schema: charity }),
  );
}

export const charityQueryOptions = (charityId: string) =>
  queryOptions({ queryKey: ['charity', charityId], queryFn: () => getCharity(charityId) });

export function useCharity(charityId: string | undefined) {
  return useQuery({ ...charityQueryOptions(charityId ?? ''), enabled: Boolean(charityId) });
}
