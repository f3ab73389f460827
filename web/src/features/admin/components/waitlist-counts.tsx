import { SimpleGrid, Table, Text } from '@mantine/core';
import type { AdminWaitlistStats } from '@qrshirt/contracts';
import { formatCount } from '@/lib/format';
import { SectionCard } from './section-card';

const byCount = (counts: Record<string, number>) => Object.entries(counts).sort(([, a], [, b]) => b - a);

/** How many joined the waitlist per shirt (with its sizes) and per charity. */
export function WaitlistCounts({ stats }: { stats: AdminWaitlistStats }) {
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }}>
      <SectionCard title="Per shirt and size" titleGap="sm">
        <Text mb="sm">
          <Text span fw={700} data-testid="waitlist-total">
            {formatCount(stats.total)}
          </Text>{' '}
          on the waitlist
        </Text>
        {stats.total === 0 ? null : (
          <Table>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Shirt</Table.Th>
                <Table.Th>Sizes</Table.Th>
                <Table.Th ta="right">People</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {byCount(stats.byShirt).map(([shirtId, count]) => (
                <Table.Tr key={shirtId}>
                  <Table.Td>{stats.shirtNames[shirtId] ?? shirtId}</Table.Td>
                  <Table.Td>
                    {byCount(stats.byShirtAndSize[shirtId] ?? {})
                      .map(([size, people]) => `${size}: ${people}`)
                      .join(', ')}
                  </Table.Td>
                  <Table.Td ta="right">{formatCount(count)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </SectionCard>
      <SectionCard title="Per charity" titleGap="sm">
        {stats.total === 0 ? (
          <Text c="dimmed">Nobody yet.</Text>
        ) : (
          <Table>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Charity</Table.Th>
                <Table.Th ta="right">People</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {byCount(stats.byCharity).map(([charityId, count]) => (
                <Table.Tr key={charityId}>
                  <Table.Td>{stats.charityNames[charityId] ?? charityId}</Table.Td>
                  <Table.Td ta="right">{formatCount(count)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </SectionCard>
    </SimpleGrid>
  );
}
