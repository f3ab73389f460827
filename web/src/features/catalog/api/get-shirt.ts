import { type Shirt, shirt } from '@qrshirt/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { call } from '@/lib/api-client';
import { cachedFetch, cacheKeys, cacheTtl } from '@/lib/cache';

/** GET /api/shirt/{id}, through the local cache (15 min). */
function getShirt(shirtId: string): Promise<Shirt> {
  return cachedFetch(cacheKeys.shirt(shirtId), cacheTtl.shirt, shirt, () =>
    call('getShirt', { params: { id: shirtId }, schema: shirt }),
  );
}

export const shirtQueryOptions = (shirtId: string) =>
  queryOptions({ queryKey: ['shirt', shirtId], queryFn: () => getShirt(shirtId) });

export function useShirt(shirtId: string | undefined) {
  return useQuery({ ...shirtQueryOptions(shirtId ?? ''), enabled: Boolean(shirtId) });
}
