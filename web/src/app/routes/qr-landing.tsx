import { Container, Grid, Skeleton, Stack, Text, Title } from '@mantine/core';
import type { Donation, FundraiserStats } from '@qrshirt/contracts';
import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { GoalProgress } from '@/components/goal-progress';
import { ReloadButton } from '@/components/reload-button';
import { useCharities } from '@/features/catalog/api/get-charities';
import { useCharity } from '@/features/catalog/api/get-charity';
import { useFundraiser, useOwnsFundraiser } from '@/features/donation/api/get-fundraiser';
import { useRecordScanOnce } from '@/features/donation/api/use-record-scan-once';
import { AboutCauseCard } from '@/features/donation/components/about-cause-card';
import { DonationCard } from '@/features/donation/components/donation-card';
import { DonationThanksTemplate } from '@/features/donation/components/donation-thanks';
import { JokeHeader } from '@/features/donation/components/joke-header';
import { ThankYouCard } from '@/features/donation/components/thank-you-card';
import {
  addReportedDonationToStats,
  statsShown,
  useFundraiserStats,
} from '@/features/owner-stats/api/get-fundraiser-stats';
import { useLiveFundraiserStats } from '@/features/owner-stats/api/live-stats';
import { ImpactStatsCard } from '@/features/owner-stats/components/impact-stats-card';
import { useAuth } from '@/lib/auth/use-auth';
import { isApiError } from '@/lib/http';
import { InStaticContent, Island } from '../server-pages/islands';

function QrLandingSkeleton() {
  return (
    <Container size="lg" py="xl" aria-busy="true" aria-label="Loading the fundraiser">
      <Stack gap="lg">
        <Skeleton h={40} w="70%" mx="auto" />
        <Skeleton h={20} w="50%" mx="auto" />
        <Skeleton h={360} />
        <Skeleton h={160} />
      </Stack>
    </Container>
  );
}

/** Spec section 2: the landing's error view, whose Try Again reloads the page, wherever it shows. */
export function QrLandingError({ message }: { message: string }) {
  return (
    <Container size="sm" py={80}>
      <Stack align="center" ta="center">
        <Title order={1}>Oops!</Title>
        <Text>{message}</Text>
        <ReloadButton />
      </Stack>
    </Container>
  );
}

/** Spec: /fundraiser/{fundraiserId} and /qr/{shirtId}, the page a scanned QR code opens. */
export function QrLandingRoute() {
  const params = useParams();
  const fundraiserId = params.fundraiserId ?? params.shirtId;
  const [searchParams, setSearchParams] = useSearchParams();
  const queryClient = useQueryClient();

  // The scan counts once: the flag leaves the address as soon as it is recorded.
  const scanRecorded = useCallback(() => {
    setSearchParams(
      (current) => {
        current.delete('scan');
        return current;
      },
      { replace: true },
    );
    void queryClient.invalidateQueries({ queryKey: ['fundraiser-stats', fundraiserId] });
  }, [setSearchParams, queryClient, fundraiserId]);
  useRecordScanOnce(fundraiserId, searchParams.get('scan') === 'true', scanRecorded);

  return <QrLanding fundraiserId={fundraiserId} />;
}

/**
 * The owner's figures, for the owner only: whether the account signed in owns the fundraiser is
 * the gateway's answer to that account (the page names no owner). The session is read here rather
 * than by the page, so that its arrival re-renders this alone, not the whole page a phone has just
 * hydrated.
 */
export function OwnerImpactStats({ fundraiserId }: { fundraiserId: string }) {
  const auth = useAuth();
  const isOwner = useOwnsFundraiser(fundraiserId, auth.user?.uid ?? null);
  const stats = useFundraiserStats(fundraiserId, isOwner);
  useLiveFundraiserStats(fundraiserId, isOwner);
  // Names for the owner's figures per charity, shown once a shirt has supported more than one.
  const supportedMore = (stats.data?.byCharity.length ?? 0) > 1;
  const charities = useCharities({ enabled: isOwner && supportedMore });
  if (!isOwner) return null;
  return (
    <ImpactStatsCard
      stats={stats.data}
      charityNames={new Map((charities.data ?? []).map((known) => [known.id, known.name]))}
    />
  );
}

/**
 * What the owner's figures, if shown, do with the donation card's donations: each one is added at
 * once as reported, to the figures as they were when the widget reported it, then the processor's
 * confirmation comes with the live figures. For the app's card and the landing script's alike.
 */
export function donationsIntoOwnerStats(queryClient: QueryClient, fundraiserId: string) {
  const shownAtDonation = new Map<string, FundraiserStats | undefined>();
  return {
    reported: (donationId: string) => {
      shownAtDonation.set(donationId, statsShown(queryClient, fundraiserId));
    },
    recorded: (recorded: Donation, donationId: string) => {
      if (recorded.awaitingConfirmation) {
        addReportedDonationToStats(queryClient, fundraiserId, recorded.amount, shownAtDonation.get(donationId));
      }
      shownAtDonation.delete(donationId);
    },
  };
}

/** The donation card, whose widget's donations also move the owner's figures, if shown. */
export function LandingDonation({ fundraiserId, charityName }: { fundraiserId: string; charityName: string }) {
  const queryClient = useQueryClient();
  const [owner] = useState(() => donationsIntoOwnerStats(queryClient, fundraiserId));
  return (
    <DonationCard
      fundraiserId={fundraiserId}
      charityName={charityName}
      onReported={owner.reported}
      onRecorded={owner.recorded}
    />
  );
}

/**
 * The landing's loading, error and not-found states and the page itself, without the scan: the
 * app's route records it, and the server-rendered page has a script of its own for it. The
 * owner's figures and the donation card are islands: on the server-rendered page, the only parts
 * the browser hydrates.
 */
export function QrLanding({ fundraiserId }: { fundraiserId: string | undefined }) {
  const fundraiser = useFundraiser(fundraiserId);
  const charity = useCharity(fundraiser.data?.charityId);

  if (!fundraiserId) return <QrLandingError message="No fundraiser ID provided" />;
  if (fundraiser.isError) {
    const message = isApiError(fundraiser.error, 404) ? 'Fundraiser not found' : 'Failed to load data';
    return <QrLandingError message={message} />;
  }
  if (charity.isError) return <QrLandingError message="Failed to load data" />;
  if (fundraiser.isPending || charity.isPending) return <QrLandingSkeleton />;

  return (
    <Container size="lg" py="xl">
      <title>{`Support ${charity.data.name} · QR Shirts for Charity`}</title>
      <Stack gap="xl">
        <JokeHeader charityName={charity.data.name} />
        <GoalProgress
          raised={fundraiser.data.amountRaised}
          goal={fundraiser.data.goal}
          label={`Raised for ${charity.data.name}, towards the goal`}
        />
        <Island name="owner-stats" component={OwnerImpactStats} props={{ fundraiserId }} />
        <Grid gap="xl">
          <Grid.Col span={{ base: 12, md: 7 }}>
            <Island
              name="donation"
              component={LandingDonation}
              props={{ fundraiserId, charityName: charity.data.name }}
            />
            <InStaticContent>
              <DonationThanksTemplate charityName={charity.data.name} />
            </InStaticContent>
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 5 }}>
            <Stack gap="xl">
              <AboutCauseCard charity={charity.data} />
              <ThankYouCard />
            </Stack>
          </Grid.Col>
        </Grid>
      </Stack>
    </Container>
  );
}
