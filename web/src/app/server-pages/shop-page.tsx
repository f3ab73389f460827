import { Notifications } from '@mantine/notifications';
import type { Shirt } from '@qrshirt/contracts';
import type { QueryClient } from '@tanstack/react-query';
import { shirtsQueryOptions } from '@/features/catalog/api/get-shirts';
import { cacheKeys, cacheTtl, setCached } from '@/lib/cache';
import { ShopRoute } from '../routes/shop';

/** What the server read for the shop, and what its page hydrates from: the catalogue as GET /api/shirts answers it. */
export interface ShopData {
  shirts: Shirt[];
}

/** The shop's one query, answered already: neither the server nor the browser asks again. */
export function seedShopQueries(queryClient: QueryClient, data: ShopData): void {
  queryClient.setQueryData(shirtsQueryOptions().queryKey, data.shirts);
}

/**
 * Spec section 9: the local cache holds what the page shows, under the key and for the time the
 * app's own load would have stored it, so the next page reads it instead of asking again.
 */
export function cacheShopData(data: ShopData): void {
  setCached(cacheKeys.shirts, data.shirts, cacheTtl.shirts);
}

/** The shop with the toasts a later failed load answers in ('Error Loading Shirts'), as the app has them. */
export function ShopPage() {
  return (
    <>
      <Notifications position="top-right" limit={4} />
      <ShopRoute />
    </>
  );
}
