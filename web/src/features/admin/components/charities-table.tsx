import { Anchor, Button, Image, Table, Text } from '@mantine/core';
import type { Charity } from '@qrshirt/contracts';
import { isWebLink } from '@/lib/web-link';
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
          <Table.Th>Logo</Table.Th>
          <Table.Th>Name</Table.Th>
          <Table.Th>Mission</Table.Th>
          <Table.Th>Website</Table.Th>
          <Table.Th aria-label="Actions" />
        </>
      }
    >
      {(charity) => (
        <Table.Tr key={charity.id}>
          <Table.Td>
            {charity.logo_url ? <Image src={charity.logo_url} alt="" w={32} h={32} fit="contain" /> : null}
          </Table.Td>
          <Table.Td fw={600}>{charity.name}</Table.Td>
          <Table.Td>
            <Text size="sm" lineClamp={2}>
              {charity.mission}
            </Text>
          </Table.Td>
          <Table.Td>
            {isWebLink(charity.website_url) ? (
              <Anchor href={charity.website_url} target="_blank" rel="noopener noreferrer" size="sm">
                {charity.website_url}
              </Anchor>
            ) : (
              <Text size="sm">{charity.website_url}</Text>
            )}
          </Table.Td>
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
