import { Button, Group, Table, Text } from '@mantine/core';
import type { AdminCharity } from '@qrshirt/contracts';
import { Link } from 'react-router';
import { adminPaths } from './admin-paths';
import { CharityCells, CharityHeadCells } from './charity-cells';
import { DataTable } from './data-table';

/**
 * Every charity the shop offers (each one approved), with what its donors' receipts name, its Edit
 * button and its Payouts page.
 */
export function CharitiesTable({
  charities,
  onEdit,
}: {
  charities: AdminCharity[];
  onEdit: (charity: AdminCharity) => void;
}) {
  return (
    <DataTable
      label="Charities"
      minWidth={760}
      empty="No charities yet."
      striped
      verticalSpacing="sm"
      rows={charities}
      head={
        <>
          <CharityHeadCells />
          <Table.Th>On receipts</Table.Th>
          <Table.Th aria-label="Actions" />
        </>
      }
    >
      {(charity) => (
        <Table.Tr key={charity.id}>
          <CharityCells charity={charity} missionLines={2} />
          <Table.Td>
            <Text size="sm">{charity.legalName ?? charity.name}</Text>
            <Text size="sm" c={charity.taxId ? undefined : 'dimmed'}>
              {charity.taxId ? `EIN ${charity.taxId}` : 'No tax id'}
            </Text>
          </Table.Td>
          <Table.Td>
            <Group gap="xs" wrap="nowrap">
              <Button size="xs" variant="light" onClick={() => onEdit(charity)} aria-label={`Edit ${charity.name}`}>
                Edit
              </Button>
              <Button
                component={Link}
                to={adminPaths.charityPayouts(charity.id)}
                size="xs"
                variant="subtle"
                aria-label={`Payouts of ${charity.name}`}
              >
                Payouts
              </Button>
            </Group>
          </Table.Td>
        </Table.Tr>
      )}
    </DataTable>
  );
}
