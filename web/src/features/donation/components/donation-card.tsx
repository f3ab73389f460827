import { Alert, Card, Stack, Text, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { DONATION_CURRENCY, THANK_YOU_VISIBLE_MS } from '@/config/constants';
import { track } from '@/lib/analytics';
import { formatUsd } from '@/lib/format';
import { useRecordDonation } from '../api/record-donation';
import { type CompletedDonation, DonationWidget } from './donation-widget';

interface DonationCardProps {
  fundraiserId: string;
  charityName: string;
  /** The widget reported a donation (before it is recorded); the same id comes with `onRecorded`. */
  onReported?: (donationId: string) => void;
  /** After the backend recorded the report, e.g. to show the owner it awaits confirmation. */
  onRecorded: (amount: number, donationId: string) => void;
}

/** The embedded widget, the 5-second thank-you after each donation, and recording it. */
export function DonationCard({ fundraiserId, charityName, onReported, onRecorded }: DonationCardProps) {
  // An object per donation, so two equal donations in a row each restart the 5 seconds.
  const [thanks, setThanks] = useState<{ amount: number } | null>(null);
  const record = useRecordDonation();

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
        onSuccess: (recorded) => onRecorded(recorded.amount, donationId),
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
        {/* True of Stripe Connect as configured: a destination charge leaves Stripe's fee to the
            platform, and the platform's own share (STRIPE_PLATFORM_FEE_PERCENT) is 0 by default. */}
        <Text c="dimmed">Every dollar goes to {charityName}. Pick an amount below.</Text>
        {thanks && (
          <Alert color="green" role="status" title="Thank you for your donation! 💚" data-testid="donation-thanks">
            Your {formatUsd(thanks.amount)} gift to {charityName} makes a real difference.
          </Alert>
        )}
        <DonationWidget fundraiserId={fundraiserId} onDonation={donate} />
      </Stack>
    </Card>
  );
}
