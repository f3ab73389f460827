import { Alert, Button, Container, Group, Stack, Text, Title } from '@mantine/core';
import { Link, useParams, useSearchParams } from 'react-router';
import { PageLoader } from '@/components/page-loader';
import { paths } from '@/config/paths';
import { useCharity } from '@/features/catalog/api/get-charity';
import { useMyCharityPayouts } from '@/features/my-charities/api/get-charity-payouts';
import { CharityPayoutsCard } from '@/features/my-charities/components/charity-payouts-card';

/**
 * /charity/:charityId/payouts: where the member who submitted a charity connects it to Stripe,
 * and where Stripe's onboarding sends them back (with `?expired=1` when its link was used or had
 * expired). Linked from the dashboard's list of their charities.
 */
export function CharityPayoutsRoute() {
  const { charityId = '' } = useParams();
  const [searchParams] = useSearchParams();
  const charity = useCharity(charityId);
  const payouts = useMyCharityPayouts(charityId);
  const name = charity.data?.name;
  // Its account says why a charity is not the member's to see (403, or 404 until approved) first.
  const failed = payouts.error ?? charity.error;

  return (
    <Container size="md" py="xl">
      <title>Stripe payouts · QR Shirts for Charity</title>
      <Stack gap="lg">
        <div>
          <Title order={1}>{name ? `Stripe payouts of ${name}` : 'Stripe payouts'}</Title>
          <Text c="dimmed">Card donations to the charity are paid by Stripe into the charity&apos;s own account.</Text>
        </div>
        {failed ? (
          <Alert color="red" title="Could not load its Stripe account">
            <Group justify="space-between">
              <span>{failed.message}</span>
              <Button
                size="xs"
                variant="white"
                color="red"
                onClick={() => void Promise.all([payouts.refetch(), charity.refetch()])}
              >
                Try Again
              </Button>
            </Group>
          </Alert>
        ) : name === undefined || !payouts.data ? (
          <PageLoader label="Loading its Stripe account..." />
        ) : (
          <CharityPayoutsCard
            charityId={charityId}
            charityName={name}
            payouts={payouts.data}
            expired={searchParams.get('expired') === '1'}
          />
        )}
        <Group>
          <Button component={Link} to={paths.dashboard} variant="default">
            Back to Dashboard
          </Button>
        </Group>
      </Stack>
    </Container>
  );
}
