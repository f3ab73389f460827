import { Card, Group, Skeleton, Table, Text, Title } from '@mantine/core';
import type { FundraiserStats } from '@qrshirt/contracts';
import { DemoMoneyLabel } from '@/components/demo-money-label';
import { isDemoMode } from '@/lib/demo-mode';
import { formatCount, formatUsd } from '@/lib/format';
import { AwaitingConfirmation } from './awaiting-confirmation';

/**
 * Spec: the owner's Impact Stats on their own QR page: Total Scans and Total Raised. Total Raised
 * is what the donation processor confirmed; what the page reported and the processor has not
 * confirmed yet shows smaller beside it. In demo mode, Total Raised is the test money, labelled.
 */
export function ImpactStatsCard({
  stats,
  charityNames,
}: {
  stats: FundraiserStats | undefined;
  /** Charity id -> name, for the figures per charity of a shirt that changed its charity. */
  charityNames?: ReadonlyMap<string, string>;
}) {
  const demo = isDemoMode();
  // Until the figures come, a placeholder of about each one's width.
  const figures = [
    { label: 'Total Scans', testId: 'total-scans', value: stats && formatCount(stats.scans), width: 80 },
    {
      label: 'Total Raised',
      testId: 'total-raised',
      value: stats && formatUsd(demo ? stats.testAmountRaised : stats.amountRaised),
      width: 100,
      beside: stats && <AwaitingConfirmation amount={stats.amountReported} />,
    },
  ];
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="impact-stats-title">
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h3" id="impact-stats-title">
          Impact Stats
        </Title>
        {demo && <DemoMoneyLabel />}
      </Group>
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
      {stats && stats.byCharity.length > 1 && <ByCharity stats={stats} charityNames={charityNames} />}
    </Card>
  );
}

/** After a change of charity: what was raised for each, the charity of the time. */
function ByCharity({ stats, charityNames }: { stats: FundraiserStats; charityNames?: ReadonlyMap<string, string> }) {
  return (
    <Table mt="md" aria-label="Raised per charity">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Charity</Table.Th>
          <Table.Th ta="right">Scans</Table.Th>
          <Table.Th ta="right">Donations</Table.Th>
          <Table.Th ta="right">Raised</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {stats.byCharity.map((line) => (
          <Table.Tr key={line.charityId}>
            <Table.Td>{charityNames?.get(line.charityId) ?? line.charityId}</Table.Td>
            <Table.Td ta="right">{formatCount(line.scans)}</Table.Td>
            <Table.Td ta="right">{formatCount(line.donations)}</Table.Td>
            <Table.Td ta="right">{formatUsd(line.amountRaised)}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
