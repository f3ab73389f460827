import { type Charity, charityList } from '@qrshirt/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { call } from '@/lib/api-client';
import { cachedFetch, cacheKeys, cacheTtl } from '@/lib/cache';

/** GET /api/charities, through the local cache (30 min). */
function getCharities(): Promise<Charity[]> {
  return cachedFetch(cacheKeys.charities, cacheTtl.charities, charityList, () =>
    call('listCharities', { schema: charityList }),
  );
}

export const charitiesQueryOptions = () => queryOptions({ queryKey: ['charities'], queryFn: getCharities });

export function useCharities({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...charitiesQueryOptions(), enabled });
}
