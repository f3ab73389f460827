import { Notifications } from '@mantine/notifications';
import type { Charity, Shirt } from '@qrshirt/contracts';
import type { QueryClient } from '@tanstack/react-query';
import { charitiesQueryOptions } from '@/features/catalog/api/get-charities';
import { shirtQueryOptions } from '@/features/catalog/api/get-shirt';
import { cacheKeys, cacheTtl, setCached } from '@/lib/cache';
import { ShirtRoute } from '../routes/shirt';

/** The shirt page's route in the server pages' shell: the page reads its shirt's id from it. */
export const SHIRT_PAGE_PATH = '/shirt/:shirtId';

/**
 * What the server read for a shirt's page, and what the page hydrates from: the shirt and the
 * charities a waitlist signup may choose, as GET /api/shirt/{id} and GET /api/charities answer them.
 */
export interface ShirtData {
  shirt: Shirt;
  charities: Charity[];
}

/** The page's queries, answered already: neither the server nor the browser asks again. */
export function seedShirtQueries(queryClient: QueryClient, data: ShirtData): void {
  queryClient.setQueryData(shirtQueryOptions(data.shirt.id).queryKey, data.shirt);
  queryClient.setQueryData(charitiesQueryOptions().queryKey, data.charities);
}

/** Spec section 9: the local cache holds what the page shows, as the app's own loads would have stored it. */
export function cacheShirtData(data: ShirtData): void {
  setCached(cacheKeys.shirt(data.shirt.id), data.shirt, cacheTtl.shirt);
  setCached(cacheKeys.charities, data.charities, cacheTtl.charities);
}

/** The shirt's page with the toasts its waitlist form answers in, as the app has them. */
export function ShirtPage() {
  return (
    <>
      <Notifications position="top-right" limit={4} />
      <ShirtRoute />
    </>
  );
}
