import type { Charity, FundraiserDetails } from '@qrshirt/contracts';
import type { QueryClient } from '@tanstack/react-query';
import { fundraiserQueryOptions } from '@/features/donation/api/get-fundraiser';
import { charityQueryOptions } from '@/features/catalog/api/get-charity';
import { QrLanding, QrLandingError } from '../routes/qr-landing';
import { ServerPageShell } from './page-shell';

/**
 * What the server read for a server-rendered landing, and what its page hydrates from: the
 * fundraiser and its charity as the API answers them, or no fundraiser by that id or short code.
 */
export type LandingData = { found: true; fundraiser: FundraiserDetails; charity: Charity } | { found: false };

/** The id of the element the server writes a page's data into, as JSON, for the browser to hydrate. */
export const LANDING_DATA_ID = 'landing-data';

/** The queries the landing reads, answered already: neither the server nor the browser asks again. */
export function seedLandingQueries(queryClient: QueryClient, data: LandingData): void {
  if (!data.found) return;
  queryClient.setQueryData(fundraiserQueryOptions(data.fundraiser.id).queryKey, data.fundraiser);
  queryClient.setQueryData(charityQueryOptions(data.charity.id).queryKey, data.charity);
}

/**
 * The QR landing as the server renders it and the browser hydrates it: the app's layout and the
 * landing's own components. The scan is not here: a script of its own records it.
 */
export function LandingPage({ queryClient, data }: { queryClient: QueryClient; data: LandingData }) {
  return (
    <ServerPageShell queryClient={queryClient}>
      {data.found ? (
        <QrLanding fundraiserId={data.fundraiser.id} />
      ) : (
        <QrLandingError message="Fundraiser not found" onRetry={() => window.location.reload()} />
      )}
    </ServerPageShell>
  );
}
