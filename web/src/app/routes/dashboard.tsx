import { Button, Card, Container, Divider, Group, Modal, Stack, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import type { FundraiserStatsItem } from '@qrshirt/contracts';
import { useState } from 'react';
import { notifications } from '@mantine/notifications';
import { Link, useNavigate } from 'react-router';
import { PageLoader } from '@/components/page-loader';
import { paths } from '@/config/paths';
import { ChangeEmailForm } from '@/features/auth/components/change-email-form';
import { CloseAccountForm } from '@/features/auth/components/close-account-form';
import { DownloadMyDataButton } from '@/features/auth/components/download-my-data-button';
import { ProfileForm } from '@/features/auth/components/profile-form';
import { SignOutEverywhereButton } from '@/features/auth/components/sign-out-everywhere-button';
import { VerifyEmailBanner } from '@/features/auth/components/verify-email-banner';
import { useCharities } from '@/features/catalog/api/get-charities';
import { MyCharities } from '@/features/my-charities/components/my-charities';
import { useManyFundraiserStats } from '@/features/owner-stats/api/get-fundraiser-stats';
import { useUserStats } from '@/features/owner-stats/api/get-user-stats';
import { DailySummarySwitch } from '@/features/owner-mail/components/daily-summary-switch';
import { useLiveUserStats } from '@/features/owner-stats/api/live-stats';
import { combineDaily } from '@/features/owner-stats/components/combine-daily';
import { EditShirtForm } from '@/features/owner-stats/components/edit-shirt-form';
import { ImpactChart } from '@/features/owner-stats/components/impact-chart';
import { MyShirts } from '@/features/owner-stats/components/my-shirts';
import { StatCards } from '@/features/owner-stats/components/stat-cards';
import { signOut } from '@/lib/auth/auth-lifecycle';
import { type SignedInUser, useAuth } from '@/lib/auth/use-auth';

function PleaseSignIn() {
  return (
    <Container size="sm" py={80}>
      <Stack align="center" ta="center">
        <Title order={1}>Please Sign In</Title>
        <Text c="dimmed">Please sign in to view your dashboard</Text>
        <Button component={Link} to={paths.signIn}>
          Sign In
        </Button>
      </Stack>
    </Container>
  );
}

function Dashboard({ user }: { user: SignedInUser }) {
  const stats = useUserStats(user.uid);
  useLiveUserStats(user.uid);
  const daily = useManyFundraiserStats(stats.data?.fundraiserStats.map((item) => item.id) ?? []);
  const [profileOpen, profile] = useDisclosure(false);
  const [closingOpen, closing] = useDisclosure(false);
  const navigate = useNavigate();
  const [editing, setEditing] = useState<FundraiserStatsItem | null>(null);
  // Only once an owner edits a shirt: the charities are what its charity may become.
  const charities = useCharities({ enabled: editing !== null });

  if (stats.isPending) return <PageLoader label="Loading your dashboard..." />;
  if (stats.isError) {
    return (
      <Container size="sm" py={80}>
        <Stack align="center" ta="center">
          <Title order={1}>Something went wrong</Title>
          <Text c="dimmed">Failed to load user stats</Text>
          <Button onClick={() => void stats.refetch()} loading={stats.isFetching}>
            Try Again
          </Button>
        </Stack>
      </Container>
    );
  }

  const days = combineDaily(daily.flatMap((query) => (query.data ? [query.data.daily] : [])));
  return (
    <Container size="xl" py="xl">
      <Stack gap="xl">
        <div>
          <Title order={1}>Welcome back, {user.displayName || user.email}!</Title>
          <Text c="dimmed">Here is the good your shirts have done so far.</Text>
        </div>
        <VerifyEmailBanner uid={user.uid} email={user.email} />
        <StatCards stats={stats.data} />
        <ImpactChart days={days} />
        <section aria-labelledby="my-shirts-title">
          <Title order={2} id="my-shirts-title" mb="md">
            My Shirts
          </Title>
          <MyShirts shirts={stats.data.fundraiserStats} onEdit={setEditing} />
        </section>
        <MyCharities uid={user.uid} />
        <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="quick-actions-title">
          <Title order={2} size="h3" id="quick-actions-title" mb="md">
            Quick Actions
          </Title>
          <Group align="flex-start">
            <Button component={Link} to={paths.shop}>
              Get Another Shirt
            </Button>
            <Button variant="default" onClick={profile.open}>
              Edit Profile
            </Button>
            <DownloadMyDataButton uid={user.uid} />
            <SignOutEverywhereButton
              onSignedOut={() => {
                notifications.show({ message: 'You are signed out on every device.' });
                void navigate(paths.home);
                // The server ended this session too and cleared its cookie; this clears the page's.
                void signOut();
              }}
            />
            <Button variant="subtle" color="red" onClick={closing.open}>
              Close my account
            </Button>
          </Group>
        </Card>
      </Stack>
      <Modal
        opened={profileOpen}
        onClose={profile.close}
        title="Edit Profile"
        closeButtonProps={{ 'aria-label': 'Close' }}
      >
        <Stack gap="lg">
          <ProfileForm user={user} />
          <Divider label="Email address" labelPosition="left" />
          <ChangeEmailForm user={user} />
          <Divider />
          <DailySummarySwitch uid={user.uid} />
        </Stack>
      </Modal>
      <Modal
        opened={closingOpen}
        onClose={closing.close}
        title="Close my account?"
        closeButtonProps={{ 'aria-label': 'Close' }}
      >
        <CloseAccountForm
          user={user}
          onCancel={closing.close}
          onClosed={() => {
            notifications.show({ message: 'Your account is closed.' });
            void navigate(paths.home);
            // The server ended every session already; this clears the browser's and goes on anonymously.
            void signOut();
          }}
        />
      </Modal>
      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title="Edit shirt"
        closeButtonProps={{ 'aria-label': 'Close' }}
      >
        {editing && <EditShirtForm shirt={editing} charities={charities.data ?? []} onSaved={() => setEditing(null)} />}
      </Modal>
    </Container>
  );
}

export function DashboardRoute() {
  const auth = useAuth();
  return (
    <>
      <title>Dashboard · QR Shirts for Charity</title>
      {auth.status === 'loading' ? <PageLoader /> : auth.user ? <Dashboard user={auth.user} /> : <PleaseSignIn />}
    </>
  );
}
