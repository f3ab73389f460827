import { type Shirt, shirtList } from '@qrshirt/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { call } from '@/lib/api-client';
import { cachedFetch, cacheKeys, cacheTtl } from '@/lib/cache';

/** GET /api/shirts, through the local cache (10 min). */
function getShirts(): Promise<Shirt[]> {
  return cachedFetch(cacheKeys.shirts, cacheTtl.shirts, shirtList, () => call('listShirts', { schema: shirtList }));
}

export const shirtsQueryOptions = () => queryOptions({ queryKey: ['shirts'], queryFn: getShirts });

export function useShirts() {
  return useQuery(shirtsQueryOptions());
}
