import type { Shirt } from '@qrshirt/contracts';
import type { QueryClient } from '@tanstack/react-query';
import { shirtsQueryOptions } from '@/features/catalog/api/get-shirts';

/** What the server read for the shop, and what its page hydrates from: the catalogue as GET /api/shirts answers it. */
export interface ShopData {
  shirts: Shirt[];
}

/** The shop's one query, answered already: neither the server nor the browser asks again. */
export function seedShopQueries(queryClient: QueryClient, data: ShopData): void {
  queryClient.setQueryData(shirtsQueryOptions().queryKey, data.shirts);
}
