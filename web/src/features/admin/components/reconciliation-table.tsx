import { Stack, Table, Text } from '@mantine/core';
import type { AdminReconciliation, ReconcileDifference } from '@qrshirt/contracts';
import { formatUsd } from '@/lib/format';
import { DataTable } from './data-table';

const figureLabels: Record<ReconcileDifference['figure'], string> = {
  gross: 'Gross',
  refunds: 'Refunds',
  disputes: 'Disputes',
  fees: "Stripe's fees",
  platformFees: "The platform's fees",
  transfers: 'Transfers',
};

const subjectOf = ({ subject, id, charityId }: ReconcileDifference) =>
  subject === 'payment' ? `Payment ${id}` : `Charity ${charityId ?? '(none of ours)'}, account ${id}`;

/** What `npm run reconcile` prints, as a table: every difference, or that there are none. */
export function ReconciliationTable({ reconciliation }: { reconciliation: AdminReconciliation }) {
  const { payments, accounts, others, differences, live } = reconciliation;
  return (
    <Stack gap="sm">
      <Text data-testid="reconcile-summary">
        {payments} payments and {accounts} connected accounts compared ({live ? 'live money' : 'test money'}); {others}{' '}
        other balance transactions (payouts, transfers, Stripe&apos;s own fees) not compared.
      </Text>
      <DataTable
        label="Differences"
        minWidth={560}
        rows={differences}
        empty="No differences: the ledger and Stripe agree on this period."
        head={
          <>
            <Table.Th>What</Table.Th>
            <Table.Th>Figure</Table.Th>
            <Table.Th ta="right">Ledger</Table.Th>
            <Table.Th ta="right">Stripe</Table.Th>
          </>
        }
      >
        {(difference) => (
          <Table.Tr key={`${difference.subject}:${difference.id}:${difference.figure}`}>
            <Table.Td>{subjectOf(difference)}</Table.Td>
            <Table.Td>{figureLabels[difference.figure]}</Table.Td>
            <Table.Td ta="right">{formatUsd(difference.ledger)}</Table.Td>
            <Table.Td ta="right">{formatUsd(difference.stripe)}</Table.Td>
          </Table.Tr>
        )}
      </DataTable>
    </Stack>
  );
}
