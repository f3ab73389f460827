import { Card, SimpleGrid, Stack, Text } from '@mantine/core';
import type { AdminOverview } from '@qrshirt/contracts';
import { DemoMoneyLabel } from '@/components/demo-money-label';
import { isDemoMode } from '@/lib/demo-mode';
import { formatCount, formatUsd } from '@/lib/format';

/** The headline figures across every fundraiser; in demo mode, its donations are the test money, labelled. */
export function OverviewTotals({ totals }: { totals: AdminOverview['totals'] }) {
  const demo = isDemoMode();
  const figures = [
    // Scans count people (once per visitor per 30 minutes, no robots); requests are all that came.
    { label: 'Scans', value: formatCount(totals.scans) },
    { label: 'Scan requests', value: formatCount(totals.scanRequests) },
    { label: 'Donations', value: formatCount(demo ? totals.testDonations : totals.donations) },
    { label: 'Amount raised', value: formatUsd(demo ? totals.testAmountRaised : totals.amountRaised) },
    { label: 'Fundraisers', value: formatCount(totals.fundraisers) },
    { label: 'Registered users', value: formatCount(totals.users) },
  ];
  return (
    <Stack gap="xs">
      {demo && <DemoMoneyLabel />}
      <SimpleGrid cols={{ base: 2, md: 3, lg: 6 }}>
        {figures.map((figure) => (
          <Card key={figure.label} withBorder radius="md" padding="md" component="section" aria-label={figure.label}>
            <Text size="sm" c="dimmed" fw={600}>
              {figure.label}
            </Text>
            <Text fz={24} fw={700} data-testid={`total-${figure.label.toLowerCase().replaceAll(' ', '-')}`}>
              {figure.value}
            </Text>
          </Card>
        ))}
      </SimpleGrid>
    </Stack>
  );
}
