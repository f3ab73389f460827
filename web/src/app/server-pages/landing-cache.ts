import type { Charity } from '@qrshirt/contracts';
import { cacheKeys, cacheTtl, setCached } from '@/lib/cache';

/** What the landing's browser is given of what the server read: the charity, for the local cache. */
export interface LandingCacheData {
  charity: Charity;
}

/** Spec section 9: the local cache holds the charity the page shows, as the app's own load would have stored it. */
export function cacheLandingData(data: LandingCacheData): void {
  setCached(cacheKeys.charity(data.charity.id), data.charity, cacheTtl.charity);
}
