import { Card, Table, Text, Title } from '@mantine/core';
import type { AdminOverview } from '@qrshirt/contracts';
import { formatCount, formatUsd } from '@/lib/format';
import { ScrollingTable } from './scrolling-table';

function ListCard({ title, empty, children }: { title: string; empty: boolean; children: React.ReactNode }) {
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-label={title}>
      <Title order={2} size="h4" mb="md">
        {title}
      </Title>
      {empty ? (
        <Text c="dimmed">None yet.</Text>
      ) : (
        <ScrollingTable label={title} minWidth={420}>
          {children}
        </ScrollingTable>
      )}
    </Card>
  );
}

/** The fundraisers that raised most, with their scans and donations. */
export function TopFundraisers({ fundraisers }: { fundraisers: AdminOverview['topFundraisers'] }) {
  return (
    <ListCard title="Top fundraisers" empty={fundraisers.length === 0}>
      <Table striped>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Fundraiser</Table.Th>
            <Table.Th ta="right">Scans</Table.Th>
            <Table.Th ta="right">Donations</Table.Th>
            <Table.Th ta="right">Raised</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {fundraisers.map((fundraiser) => (
            <Table.Tr key={fundraiser.id}>
              <Table.Td>{fundraiser.name}</Table.Td>
              <Table.Td ta="right">{formatCount(fundraiser.scans)}</Table.Td>
              <Table.Td ta="right">{formatCount(fundraiser.donations)}</Table.Td>
              <Table.Td ta="right">{formatUsd(fundraiser.amountRaised)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ListCard>
  );
}

/** The charities that were raised most for, with how many fundraisers support them. */
export function TopCharities({ charities }: { charities: AdminOverview['topCharities'] }) {
  return (
    <ListCard title="Top charities" empty={charities.length === 0}>
      <Table striped>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Charity</Table.Th>
            <Table.Th ta="right">Fundraisers</Table.Th>
            <Table.Th ta="right">Raised</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {charities.map((charity) => (
            <Table.Tr key={charity.id}>
              <Table.Td>{charity.name ?? charity.id}</Table.Td>
              <Table.Td ta="right">{formatCount(charity.fundraisers)}</Table.Td>
              <Table.Td ta="right">{formatUsd(charity.amountRaised)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ListCard>
  );
}
