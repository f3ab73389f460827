import { Card, Group, SimpleGrid, Text } from '@mantine/core';
import type { UserStats } from '@qrshirt/contracts';
import type { ReactNode } from 'react';
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

/** Spec: Total Impact, QR Scans, Shirts Owned, Avg per Shirt: confirmed money, with what awaits confirmation beside it. */
export function StatCards({ stats }: { stats: UserStats }) {
  return (
    <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }}>
      <StatCard
        label="Total Impact"
        value={formatUsd(stats.totalImpact)}
        note="raised for charity, confirmed"
        beside={<AwaitingConfirmation amount={stats.totalReported} />}
      />
      <StatCard label="QR Scans" value={formatCount(stats.totalScans)} note="curious strangers" />
      <StatCard label="Shirts Owned" value={formatCount(stats.shirtsOwned)} note="walking fundraisers" />
      <StatCard
        label="Avg per Shirt"
        value={formatUsd(averagePerShirt(stats.totalImpact, stats.shirtsOwned))}
        note="raised per shirt"
      />
    </SimpleGrid>
  );
}
