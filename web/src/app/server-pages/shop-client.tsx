/* What makes the server-rendered shop live: loaded by boot.ts once the page has painted. */
import { createQueryClient } from '@/lib/query-client';
import { hydratePage, readPageData } from './hydrate-page';
import { seedShopQueries, type ShopData, ShopPage } from './shop-page';

const queryClient = createQueryClient();
seedShopQueries(queryClient, readPageData<ShopData>());
hydratePage(queryClient, <ShopPage />);
