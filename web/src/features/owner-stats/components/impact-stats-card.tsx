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
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="impact-stats-title">
      <Title order={2} size="h3" id="impact-stats-title" mb="sm">
        Impact Stats
      </Title>
      <Group grow>
        <div>
          <Text size="sm" c="dimmed">
            Total Scans
          </Text>
          {stats ? (
            <Text fz={28} fw={700} data-testid="total-scans">
              {formatCount(stats.scans)}
            </Text>
          ) : (
            <Skeleton h={36} w={80} />
          )}
        </div>
        <div>
          <Text size="sm" c="dimmed">
            Total Raised
          </Text>
          {stats ? (
            <Group gap="xs" align="baseline" wrap="wrap">
              <Text fz={28} fw={700} data-testid="total-raised">
                {formatUsd(stats.amountRaised)}
              </Text>
              <AwaitingConfirmation amount={stats.amountReported} />
            </Group>
          ) : (
            <Skeleton h={36} w={100} />
          )}
        </div>
      </Group>
    </Card>
  );
}
