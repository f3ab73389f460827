import { Card, Stack, Text, Title } from '@mantine/core';
import type { Donation } from '@qrshirt/contracts';
import { useEffect, useState } from 'react';
import { DONATION_CURRENCY, THANK_YOU_VISIBLE_MS } from '@/config/constants';
import { track } from '@/lib/analytics';
import { formatUsd } from '@/lib/format';
import { useHydrated } from '@/lib/use-hydrated';
import { useRecordDonation } from '../api/use-record-donation';
import { whatReachesTheCharity } from './donation-share';
import { DonationThanks } from './donation-thanks';
import { DonationWidget } from './donation-widget';
import type { CompletedDonation } from './widget-messages';

interface DonationCardProps {
  fundraiserId: string;
  charityName: string;
  /** The widget reported a donation (before it is recorded); the same id comes with `onRecorded`. */
  onReported?: (donationId: string) => void;
  /** After the backend recorded the report, which says whether it awaits confirmation. */
  onRecorded: (recorded: Donation, donationId: string) => void;
}

/** The embedded widget, the 5-second thank-you after each donation, and recording it. */
export function DonationCard({ fundraiserId, charityName, onReported, onRecorded }: DonationCardProps) {
  // An object per donation, so two equal donations in a row each restart the 5 seconds.
  const [thanks, setThanks] = useState<{ amount: number } | null>(null);
  const record = useRecordDonation();
  // The page's settings are in its meta tags, which the server's render of the card cannot read.
  const hydrated = useHydrated();

  useEffect(() => {
    if (!thanks) return;
    const timer = setTimeout(() => setThanks(null), THANK_YOU_VISIBLE_MS);
    return () => clearTimeout(timer);
  }, [thanks]);

  const donate = ({ amount, donationId }: CompletedDonation) => {
    setThanks({ amount });
    onReported?.(donationId);
    track({ type: 'donation', fundraiser_id: fundraiserId, amount, currency: DONATION_CURRENCY });
    record.mutate(
      { fundraiserId, amount, idempotencyKey: donationId },
      {
        onSuccess: (recorded) => onRecorded(recorded, donationId),
        // The processor took the money; our record failing is for the logs, not the donor.
        onError: (error) => console.warn('Recording the donation failed', error),
      },
    );
  };

  return (
    <Card withBorder radius="md" padding="lg">
      <Stack gap="md">
        <Title order={2} size="h3">
          Make a Donation
        </Title>
        <Text c="dimmed" data-testid="donation-share">
          {hydrated && `${whatReachesTheCharity(charityName)} `}Pick an amount below.
        </Text>
        {thanks && <DonationThanks amount={formatUsd(thanks.amount)} charityName={charityName} />}
        <DonationWidget fundraiserId={fundraiserId} onDonation={donate} />
      </Stack>
    </Card>
  );
}
