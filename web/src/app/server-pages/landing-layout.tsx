/*
 * The landing's React, loaded by its script (landing-script.ts) only when needed: for a
 * signed-in visitor (whose layout greets them, and whose page may show the owner's figures), on
 * the first tap on the menu or the cache panel's keys, and with Stripe configured (its amount form
 * and Checkout are React's). The layout hydrates around the content as it is, then the owner's
 * figures, and the donation card if asked.
 * Its stylesheets are not imported here: the server writes them into the page itself.
 */
import type { Donation } from '@qrshirt/contracts';
import { createQueryClient } from '@/lib/query-client';
import { donationsIntoOwnerStats, LandingDonation, OwnerImpactStats } from '../routes/qr-landing';
import { hydrateIslands } from './hydrate-page';
import { SCAN_RECORDED } from './scan-recorded';

/** What the landing script's donation card tells the owner's figures. */
export interface OwnerStatsFollower {
  reported: (donationId: string) => void;
  recorded: (recorded: Donation, donationId: string) => void;
}

/**
 * Settles once the layout is live, with what follows the script's card's donations into the
 * owner's figures (none on a landing without a fundraiser). The script warms the cache itself.
 */
export async function hydrateLandingLayout({
  fundraiserId,
  withDonationCard,
}: {
  fundraiserId: string | undefined;
  withDonationCard: boolean;
}): Promise<OwnerStatsFollower | undefined> {
  const queryClient = createQueryClient();
  // The owner's Total Scans, if already read, counts the scan the early script recorded.
  window.addEventListener(SCAN_RECORDED, () => {
    void queryClient.invalidateQueries({ queryKey: ['fundraiser-stats'] });
  });
  await hydrateIslands(
    queryClient,
    { 'owner-stats': OwnerImpactStats, ...(withDonationCard && { donation: LandingDonation }) },
    { warmUp: false },
  );
  return fundraiserId === undefined ? undefined : donationsIntoOwnerStats(queryClient, fundraiserId);
}
