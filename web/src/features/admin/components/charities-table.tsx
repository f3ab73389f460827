import { Button, Table } from '@mantine/core';
import type { Charity } from '@qrshirt/contracts';
import { CharityCells, CharityHeadCells } from './charity-cells';
import { DataTable } from './data-table';

/** Every charity the shop offers, each with an Edit button. */
export function CharitiesTable({ charities, onEdit }: { charities: Charity[]; onEdit: (charity: Charity) => void }) {
  return (
    <DataTable
      label="Charities"
      minWidth={640}
      empty="No charities yet."
      striped
      verticalSpacing="sm"
      rows={charities}
      head={
        <>
          <CharityHeadCells />
          <Table.Th aria-label="Actions" />
        </>
      }
    >
      {(charity) => (
        <Table.Tr key={charity.id}>
          <CharityCells charity={charity} missionLines={2} />
          <Table.Td>
            <Button size="xs" variant="light" onClick={() => onEdit(charity)} aria-label={`Edit ${charity.name}`}>
              Edit
            </Button>
          </Table.Td>
        </Table.Tr>
      )}
    </DataTable>
  );
}
