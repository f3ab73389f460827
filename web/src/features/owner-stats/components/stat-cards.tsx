import { Card, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import type { UserStats } from '@qrshirt/contracts';
import type { ReactNode } from 'react';
import { DemoMoneyLabel } from '@/components/demo-money-label';
import { isDemoMode } from '@/lib/demo-mode';
import { formatCount, formatUsd } from '@/lib/format';
import { AwaitingConfirmation } from './awaiting-confirmation';
import { averagePerShirt } from './dashboard-formulas';

function StatCard({ label, value, note, beside }: { label: string; value: string; note: string; beside?: ReactNode }) {
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-label={label}>
      <Text size="sm" c="dimmed" fw={600}>
        {label}
      </Text>
      <Group gap="xs" align="baseline" wrap="wrap">
        <Text fz={28} fw={700} data-testid={`stat-${label.toLowerCase().replaceAll(' ', '-')}`}>
          {value}
        </Text>
        {beside}
      </Group>
      <Text size="xs" c="dimmed">
        {note}
      </Text>
    </Card>
  );
}

/**
 * Spec: Total Impact, QR Scans, Shirts Owned, Avg per Shirt: confirmed money, with what awaits
 * confirmation beside it. In demo mode the money is the test money, labelled.
 */
export function StatCards({ stats }: { stats: UserStats }) {
  const demo = isDemoMode();
  const impact = demo ? stats.testAmountRaised : stats.totalImpact;
  return (
    <Stack gap="xs">
      {demo && <DemoMoneyLabel />}
      <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }}>
        <StatCard
          label="Total Impact"
          value={formatUsd(impact)}
          note={demo ? 'test donations, confirmed' : 'raised for charity, confirmed'}
          beside={<AwaitingConfirmation amount={stats.totalReported} />}
        />
        <StatCard label="QR Scans" value={formatCount(stats.totalScans)} note="curious strangers" />
        <StatCard label="Shirts Owned" value={formatCount(stats.shirtsOwned)} note="walking fundraisers" />
        <StatCard
          label="Avg per Shirt"
          value={formatUsd(averagePerShirt(impact, stats.shirtsOwned))}
          note="raised per shirt"
        />
      </SimpleGrid>
    </Stack>
  );
}
