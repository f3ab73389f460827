import type { Charity, FundraiserDetails } from '@qrshirt/contracts';
import type { QueryClient } from '@tanstack/react-query';
import { fundraiserQueryOptions } from '@/features/donation/api/get-fundraiser';
import { charityQueryOptions } from '@/features/catalog/api/get-charity';
import { QrLanding, QrLandingError } from '../routes/qr-landing';

/**
 * What the server read for a server-rendered landing: the fundraiser and its charity as the API
 * answers them, or no fundraiser by that id or short code.
 */
export type LandingData = { found: true; fundraiser: FundraiserDetails; charity: Charity } | { found: false };

/**
 * The queries the landing reads, answered already, for the server to render it from: the
 * fundraiser as read for nobody, which is all the server knows of its visitor.
 */
export function seedLandingQueries(queryClient: QueryClient, data: LandingData): void {
  if (!data.found) return;
  queryClient.setQueryData(fundraiserQueryOptions(data.fundraiser.id, null).queryKey, data.fundraiser);
  queryClient.setQueryData(charityQueryOptions(data.charity.id).queryKey, data.charity);
}

/**
 * The QR landing's content as the server renders it, in the server pages' shell. The browser
 * hydrates only its islands: the owner's figures and the donation card. The not-found view has
 * none: its Try Again is a form. The scan is not here: a script of its own records it.
 */
export function LandingPage({ data }: { data: LandingData }) {
  return data.found ? (
    <QrLanding fundraiserId={data.fundraiser.id} />
  ) : (
    <QrLandingError message="Fundraiser not found" />
  );
}
