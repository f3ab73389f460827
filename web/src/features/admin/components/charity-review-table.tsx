import { Button, Group, Table, Text, VisuallyHidden } from '@mantine/core';
import type { AdminCharity } from '@qrshirt/contracts';
import { formatDateTime } from '@/lib/format';
import { CharityCells, CharityHeadCells } from './charity-cells';
import { DataTable } from './data-table';

/**
 * Charities members submitted, waiting for review (or turned down, with the reason). Each can be
 * approved; a pending one can be rejected.
 */
export function CharityReviewTable({
  charities,
  approving,
  onApprove,
  onReject,
}: {
  charities: AdminCharity[];
  /** The id of the charity being approved, if any. */
  approving: string | null;
  onApprove: (charity: AdminCharity) => void;
  onReject: (charity: AdminCharity) => void;
}) {
  const rejected = charities.some((charity) => charity.status === 'rejected');
  return (
    <DataTable
      label="Charities for review"
      minWidth={900}
      empty="Nothing here."
      striped
      verticalSpacing="sm"
      rows={charities}
      head={
        <>
          <CharityHeadCells />
          <Table.Th>Submitted</Table.Th>
          {rejected && <Table.Th>Reason</Table.Th>}
          <Table.Th>
            <VisuallyHidden>Actions</VisuallyHidden>
          </Table.Th>
        </>
      }
    >
      {(charity) => (
        <Table.Tr key={charity.id} data-testid="charity-for-review">
          <CharityCells charity={charity} missionLines={3} />
          <Table.Td>
            <Text size="sm">{charity.createdAt && formatDateTime(charity.createdAt)}</Text>
            {charity.createdBy && (
              <Text size="xs" c="dimmed">
                by {charity.createdBy}
              </Text>
            )}
          </Table.Td>
          {rejected && (
            <Table.Td>
              <Text size="sm">{charity.rejectionReason ?? ''}</Text>
            </Table.Td>
          )}
          <Table.Td>
            <Group gap="xs" wrap="nowrap">
              <Button
                size="xs"
                color="green"
                loading={approving === charity.id}
                disabled={approving !== null && approving !== charity.id}
                onClick={() => onApprove(charity)}
                aria-label={`Approve ${charity.name}`}
              >
                Approve
              </Button>
              {charity.status === 'pending' && (
                <Button
                  size="xs"
                  variant="light"
                  color="red"
                  onClick={() => onReject(charity)}
                  aria-label={`Reject ${charity.name}`}
                >
                  Reject
                </Button>
              )}
            </Group>
          </Table.Td>
        </Table.Tr>
      )}
    </DataTable>
  );
}
