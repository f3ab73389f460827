/* What makes a server-rendered shirt page live: loaded by boot.ts once the page has painted. */
import { createQueryClient } from '@/lib/query-client';
import { hydratePage, readPageData } from './hydrate-page';
import { cacheShirtData, SHIRT_PAGE_PATH, type ShirtData, ShirtPage, seedShirtQueries } from './shirt-page';

const queryClient = createQueryClient();
const data = readPageData<ShirtData>();
seedShirtQueries(queryClient, data);
cacheShirtData(data);
hydratePage(queryClient, <ShirtPage />, SHIRT_PAGE_PATH);
