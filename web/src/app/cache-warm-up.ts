import type { QueryClient } from '@tanstack/react-query';
import { CACHE_WARM_UP_DELAY_MS } from '@/config/constants';
import { charitiesQueryOptions } from '@/features/catalog/api/get-charities';
import { shirtsQueryOptions } from '@/features/catalog/api/get-shirts';

/**
 * Spec section 9: about 2 s after the page loaded (once the visible page had the network to
 * itself), the lists most pages need are fetched into the cache.
 */
export function scheduleCacheWarmUp(queryClient: QueryClient): () => void {
  const timer = setTimeout(() => {
    void queryClient.prefetchQuery(shirtsQueryOptions());
    void queryClient.prefetchQuery(charitiesQueryOptions());
  }, CACHE_WARM_UP_DELAY_MS);
  return () => clearTimeout(timer);
}
