/* What makes the server-rendered shop live: loaded by boot.ts once the page has painted. */
import { createQueryClient } from '@/lib/query-client';
import { hydratePage } from './hydrate-page';
import { readPageData } from './page-data';
import { cacheShopData, seedShopQueries, type ShopData, ShopPage } from './shop-page';

const queryClient = createQueryClient();
const data = readPageData<ShopData>();
seedShopQueries(queryClient, data);
cacheShopData(data);
hydratePage(queryClient, <ShopPage />);
