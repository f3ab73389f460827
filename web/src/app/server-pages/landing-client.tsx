/*
 * What makes the server-rendered landing live: loaded by boot.ts once the page has painted. Only
 * the layout and the landing's islands hydrate: the owner's figures and the donation card; the
 * rest of the page stays as the server sent it (islands.tsx).
 * Its stylesheets are not imported here: the server writes them into the page itself.
 */
import { createQueryClient } from '@/lib/query-client';
import { LandingDonation, OwnerImpactStats } from '../routes/qr-landing';
import { hydrateIslands, readPageData } from './hydrate-page';
import { cacheLandingData, type LandingCacheData } from './landing-page';
import { PAGE_DATA_ID } from './page-shell';
import { SCAN_RECORDED } from './scan-recorded';

const queryClient = createQueryClient();
// A fundraiser nobody has comes without data: nothing to cache.
if (document.getElementById(PAGE_DATA_ID)) cacheLandingData(readPageData<LandingCacheData>());
// The owner's Total Scans, if already read, counts the scan the early script recorded.
window.addEventListener(SCAN_RECORDED, () => {
  void queryClient.invalidateQueries({ queryKey: ['fundraiser-stats'] });
});
void hydrateIslands(queryClient, {
  'owner-stats': OwnerImpactStats,
  donation: LandingDonation,
});
