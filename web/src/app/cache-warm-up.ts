import type { QueryClient, QueryKey } from '@tanstack/react-query';
import { CACHE_WARM_UP_DELAY_MS } from '@/config/constants';
import { charitiesQueryOptions } from '@/features/catalog/api/get-charities';
import { shirtsQueryOptions } from '@/features/catalog/api/get-shirts';

/**
 * Spec section 9: about 2 s after the page loaded (once the visible page had the network to
 * itself), the lists most pages need are fetched into the cache. A list whose load just failed is
 * left alone: its page shows the error until Try Again (spec section 4), and its toast once.
 */
export function scheduleCacheWarmUp(queryClient: QueryClient): () => void {
  const warm = (options: { queryKey: QueryKey }) => {
    if (queryClient.getQueryState(options.queryKey)?.status === 'error') return;
    void queryClient.prefetchQuery(options);
  };
  const timer = setTimeout(() => {
    warm(shirtsQueryOptions());
    warm(charitiesQueryOptions());
  }, CACHE_WARM_UP_DELAY_MS);
  return () => clearTimeout(timer);
}
