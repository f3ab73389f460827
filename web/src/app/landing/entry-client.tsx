/*
 * What makes the server-rendered landing live: loaded by boot.ts once the page has painted.
 * Its stylesheet is not imported here: the server writes landing.css into the page itself.
 */
import { StrictMode, startTransition } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { initAuth } from '@/lib/auth/auth-lifecycle';
import { createQueryClient } from '@/lib/query-client';
import { LANDING_DATA_ID, type LandingData, LandingPage, seedLandingQueries } from './landing-page';
import { SCAN_RECORDED } from './scan-recorded';

// The session starts with the page: the owner's card waits for it.
void initAuth();

const data = JSON.parse(document.getElementById(LANDING_DATA_ID)!.textContent) as LandingData;
const queryClient = createQueryClient();
seedLandingQueries(queryClient, data);
if (data.found) {
  // The owner's Total Scans, if already read, counts the scan the early script recorded.
  window.addEventListener(SCAN_RECORDED, () => {
    void queryClient.invalidateQueries({ queryKey: ['fundraiser-stats', data.fundraiser.id] });
  });
}

// A transition: hydration yields to the browser every few milliseconds instead of holding the
// main thread for its whole length, and the page the server sent stays usable meanwhile.
startTransition(() => {
  hydrateRoot(
    document.getElementById('root')!,
    <StrictMode>
      <BrowserRouter>
        <LandingPage queryClient={queryClient} data={data} />
      </BrowserRouter>
    </StrictMode>,
  );
});
