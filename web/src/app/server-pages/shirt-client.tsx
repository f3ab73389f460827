/* What makes a server-rendered shirt page live: loaded by boot.ts once the page has painted. */
import { createQueryClient } from '@/lib/query-client';
import { hydratePage } from './hydrate-page';
import { readPageData } from './page-data';
import { cacheShirtData, SHIRT_PAGE_PATH, type ShirtData, ShirtPage, seedShirtQueries } from './shirt-page';

const queryClient = createQueryClient();
const data = readPageData<ShirtData>();
seedShirtQueries(queryClient, data);
cacheShirtData(data);
hydratePage(queryClient, <ShirtPage />, { path: SHIRT_PAGE_PATH });
