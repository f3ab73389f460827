import { Table } from '@mantine/core';
import type { AdminOverview } from '@qrshirt/contracts';
import { formatCount, formatUsd } from '@/lib/format';
import { DataTable, type DataTableProps } from './data-table';
import { SectionCard } from './section-card';

function ListCard<Row>({
  title,
  ...table
}: { title: string } & Pick<DataTableProps<Row>, 'head' | 'rows' | 'children'>) {
  return (
    <SectionCard title={title}>
      <DataTable label={title} minWidth={420} empty="None yet." striped {...table} />
    </SectionCard>
  );
}

/** The fundraisers that raised most, with their scans and donations. */
export function TopFundraisers({ fundraisers }: { fundraisers: AdminOverview['topFundraisers'] }) {
  return (
    <ListCard
      title="Top fundraisers"
      rows={fundraisers}
      head={
        <>
          <Table.Th>Fundraiser</Table.Th>
          <Table.Th ta="right">Scans</Table.Th>
          <Table.Th ta="right">Donations</Table.Th>
          <Table.Th ta="right">Raised</Table.Th>
        </>
      }
    >
      {(fundraiser) => (
        <Table.Tr key={fundraiser.id}>
          <Table.Td>{fundraiser.name}</Table.Td>
          <Table.Td ta="right">{formatCount(fundraiser.scans)}</Table.Td>
          <Table.Td ta="right">{formatCount(fundraiser.donations)}</Table.Td>
          <Table.Td ta="right">{formatUsd(fundraiser.amountRaised)}</Table.Td>
        </Table.Tr>
      )}
    </ListCard>
  );
}

/** The charities that were raised most for, with how many fundraisers support them. */
export function TopCharities({ charities }: { charities: AdminOverview['topCharities'] }) {
  return (
    <ListCard
      title="Top charities"
      rows={charities}
      head={
        <>
          <Table.Th>Charity</Table.Th>
          <Table.Th ta="right">Fundraisers</Table.Th>
          <Table.Th ta="right">Raised</Table.Th>
        </>
      }
    >
      {(charity) => (
        <Table.Tr key={charity.id}>
          <Table.Td>{charity.name ?? charity.id}</Table.Td>
          <Table.Td ta="right">{formatCount(charity.fundraisers)}</Table.Td>
          <Table.Td ta="right">{formatUsd(charity.amountRaised)}</Table.Td>
        </Table.Tr>
      )}
    </ListCard>
  );
}
