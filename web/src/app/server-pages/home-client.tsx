/*
 * What makes the server-rendered homepage live: loaded by boot.ts once the page has painted, as
 * shop-client.tsx is for the shop. The homepage reads no data: there is nothing to seed.
 */
import { createQueryClient } from '@/lib/query-client';
import { HomeRoute } from '../routes/home';
import { hydratePage } from './hydrate-page';

hydratePage(createQueryClient(), <HomeRoute />);
