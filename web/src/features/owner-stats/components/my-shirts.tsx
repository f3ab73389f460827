import { Anchor, Button, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { FundraiserStatsItem } from '@qrshirt/contracts';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { GoalProgress } from '@/components/goal-progress';
import { paths } from '@/config/paths';
import { isDemoMode } from '@/lib/demo-mode';
import { formatCount, formatDate, formatUsd } from '@/lib/format';
import { AwaitingConfirmation } from './awaiting-confirmation';
import { conversionRate } from './dashboard-formulas';
import { ShirtQrCode } from './shirt-qr-code';

function Figure({ label, value, beside }: { label: string; value: string; beside?: ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={600}>{value}</Text>
      {beside}
    </div>
  );
}

/** Spec: My Shirts, each with its figures and QR code (in demo mode, its test money), or the empty state. */
export function MyShirts({
  shirts,
  onEdit,
}: {
  shirts: FundraiserStatsItem[];
  /** Opens the editor of a shirt's name, charity and goal; absent: no edit button. */
  onEdit?: (shirt: FundraiserStatsItem) => void;
}) {
  if (shirts.length === 0) {
    return (
      <Card withBorder radius="md" padding="xl">
        <Stack align="center" gap="xs">
          <Title order={3}>No shirts yet</Title>
          <Text c="dimmed" ta="center">
            Get a shirt with its own QR code and watch strangers turn into donors.
          </Text>
          <Button component={Link} to={paths.shop}>
            Browse the shop
          </Button>
        </Stack>
      </Card>
    );
  }
  const demo = isDemoMode();
  return (
    <Stack gap="md">
      {shirts.map((shirt) => {
        const donations = demo ? shirt.testDonations : shirt.donationsInspired;
        const raised = demo ? shirt.testAmountRaised : shirt.amountRaised;
        return (
          <Card key={shirt.id} withBorder radius="md" padding="lg" data-testid="owned-shirt">
            <Group justify="space-between" align="flex-start" gap="lg">
              <Stack gap="xs" style={{ flex: 1, minWidth: 220 }}>
                <Title order={3} size="h4">
                  {shirt.name}
                </Title>
                <Text size="sm" c="dimmed">
                  Purchased {formatDate(shirt.purchaseDate)}
                </Text>
                <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm">
                  <Figure label="Scans" value={formatCount(shirt.scans)} />
                  <Figure label="Donations" value={formatCount(donations)} />
                  <Figure
                    label="Raised"
                    value={formatUsd(raised)}
                    beside={<AwaitingConfirmation amount={shirt.amountReported} />}
                  />
                  <Figure label="Rate" value={`${conversionRate(donations, shirt.scans)}%`} />
                </SimpleGrid>
                <GoalProgress raised={raised} goal={shirt.goal} label={`${shirt.name}: progress towards the goal`} />
                <Group gap="md">
                  <Anchor component={Link} to={paths.fundraiser(shirt.id)}>
                    View QR Page
                  </Anchor>
                  {onEdit && (
                    <Button variant="light" size="xs" onClick={() => onEdit(shirt)} aria-label={`Edit ${shirt.name}`}>
                      Edit
                    </Button>
                  )}
                </Group>
              </Stack>
              <ShirtQrCode fundraiserId={shirt.id} name={shirt.name} />
            </Group>
          </Card>
        );
      })}
    </Stack>
  );
}
