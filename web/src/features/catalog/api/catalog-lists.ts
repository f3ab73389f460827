/*
 * The catalogue's lists as the API answers them, through the local cache: in a module without
 * React, since the QR landing's script warms the cache with them too.
 */
import { type Charity, charityList, type Shirt, shirtList } from '@qrshirt/contracts';
import { call } from '@/lib/api-client';
import { cachedFetch, cacheKeys, cacheTtl } from '@/lib/cache';

/** GET /api/shirts, through the local cache (10 min). */
export function getShirts(): Promise<Shirt[]> {
  return cachedFetch(cacheKeys.shirts, cacheTtl.shirts, shirtList, () => call('listShirts', { schema: shirtList }));
}

/** GET /api/charities, through the local cache (30 min). */
export function getCharities(): Promise<Charity[]> {
  return cachedFetch(cacheKeys.charities, cacheTtl.charities, charityList, () =>
    call('listCharities', { schema: charityList }),
  );
}
