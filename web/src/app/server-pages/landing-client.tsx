/*
 * What makes the server-rendered landing live: loaded by boot.ts once the page has painted.
 * Its stylesheets are not imported here: the server writes them into the page itself.
 */
import { createQueryClient } from '@/lib/query-client';
import { hydratePage, readPageData } from './hydrate-page';
import { type LandingData, LandingPage, seedLandingQueries } from './landing-page';
import { SCAN_RECORDED } from './scan-recorded';

const data = readPageData<LandingData>();
const queryClient = createQueryClient();
seedLandingQueries(queryClient, data);
if (data.found) {
  // The owner's Total Scans, if already read, counts the scan the early script recorded.
  window.addEventListener(SCAN_RECORDED, () => {
    void queryClient.invalidateQueries({ queryKey: ['fundraiser-stats', data.fundraiser.id] });
  });
}
hydratePage(queryClient, <LandingPage data={data} />);
