import { Card, Group, Skeleton, Text, Title } from '@mantine/core';
import type { FundraiserStats } from '@qrshirt/contracts';
import { formatCount, formatUsd } from '@/lib/format';
import { AwaitingConfirmation } from './awaiting-confirmation';

/**
 * Spec: the owner's Impact Stats on their own QR page: Total Scans and Total Raised. Total Raised
 * is what the donation processor confirmed; what the page reported and the processor has not
 * confirmed yet shows smaller beside it.
 */
export function ImpactStatsCard({ stats }: { stats: FundraiserStats | undefined }) {
  // Until the figures come, a placeholder of about each one's width.
  const figures = [
    { label: 'Total Scans', testId: 'total-scans', value: stats && formatCount(stats.scans), width: 80 },
    {
      label: 'Total Raised',
      testId: 'total-raised',
      value: stats && formatUsd(stats.amountRaised),
      width: 100,
      beside: stats && <AwaitingConfirmation amount={stats.amountReported} />,
    },
  ];
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="impact-stats-title">
      <Title order={2} size="h3" id="impact-stats-title" mb="sm">
        Impact Stats
      </Title>
      <Group grow>
        {figures.map((figure) => (
          <div key={figure.label}>
            <Text size="sm" c="dimmed">
              {figure.label}
            </Text>
            {figure.value === undefined ? (
              <Skeleton h={36} w={figure.width} />
            ) : (
              <Group gap="xs" align="baseline" wrap="wrap">
                <Text fz={28} fw={700} data-testid={figure.testId}>
                  {figure.value}
                </Text>
                {figure.beside}
              </Group>
            )}
          </div>
        ))}
      </Group>
    </Card>
  );
}
