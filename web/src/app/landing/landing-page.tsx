import { MantineProvider } from '@mantine/core';
import type { Charity, FundraiserDetails } from '@qrshirt/contracts';
import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { Route, Routes, useLocation } from 'react-router';
import { AppLayout } from '@/components/layout/app-layout';
import { AdminNavLink } from '@/features/admin/components/admin-nav-link';
import { fundraiserQueryOptions } from '@/features/donation/api/get-fundraiser';
import { charityQueryOptions } from '@/features/catalog/api/get-charity';
import { QrLanding, QrLandingError } from '../routes/qr-landing';
import { cssVariablesResolver, theme } from '../theme';

/**
 * What the server read for a server-rendered landing, and what its page hydrates from: the
 * fundraiser and its charity as the API answers them, or no fundraiser by that id or short code.
 */
export type LandingData = { found: true; fundraiser: FundraiserDetails; charity: Charity } | { found: false };

/** The id of the element the server writes the data into, as JSON, for the browser to hydrate. */
export const LANDING_DATA_ID = 'landing-data';

/** The queries the landing reads, answered already: neither the server nor the browser asks again. */
export function seedLandingQueries(queryClient: QueryClient, data: LandingData): void {
  if (!data.found) return;
  queryClient.setQueryData(fundraiserQueryOptions(data.fundraiser.id).queryKey, data.fundraiser);
  queryClient.setQueryData(charityQueryOptions(data.charity.id).queryKey, data.charity);
}

/**
 * The rest of the site is the app's: a link followed from here loads it as a whole page, into
 * the app's own router, rather than into this page's, which knows only the landing.
 */
function LeaveForTheApp() {
  const { pathname } = useLocation();
  const landedOn = useRef(pathname);
  useEffect(() => {
    if (pathname !== landedOn.current) window.location.reload();
  }, [pathname]);
  return null;
}

function LandingContent({ data }: { data: LandingData }) {
  return (
    <>
      <LeaveForTheApp />
      {data.found ? (
        <QrLanding fundraiserId={data.fundraiser.id} />
      ) : (
        <QrLandingError message="Fundraiser not found" onRetry={() => window.location.reload()} />
      )}
    </>
  );
}

/**
 * The QR landing as the server renders it and the browser hydrates it: the app's layout and the
 * landing's own components, inside the router the caller gives (static on the server, the
 * browser's history in the browser). The scan is not here: a script of its own records it.
 */
export function LandingPage({ queryClient, data }: { queryClient: QueryClient; data: LandingData }) {
  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="light">
      <QueryClientProvider client={queryClient}>
        <Routes>
          <Route element={<AppLayout extraLinks={AdminNavLink} />}>
            <Route path="*" element={<LandingContent data={data} />} />
          </Route>
        </Routes>
      </QueryClientProvider>
    </MantineProvider>
  );
}
