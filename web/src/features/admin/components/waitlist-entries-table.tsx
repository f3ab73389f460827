import { Table, Text } from '@mantine/core';
import type { AdminWaitlistEntry } from '@qrshirt/contracts';
import { ScrollingTable } from './scrolling-table';

const joined = (at: string) => new Date(at).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' });

/** Who joined, newest first: name and email are for admins' eyes only. */
export function WaitlistEntriesTable({ entries }: { entries: AdminWaitlistEntry[] }) {
  if (entries.length === 0) return <Text c="dimmed">Nobody has joined the waitlist yet.</Text>;
  return (
    <ScrollingTable label="Waitlist entries" minWidth={720}>
      <Table striped>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Joined</Table.Th>
            <Table.Th>Name</Table.Th>
            <Table.Th>Email</Table.Th>
            <Table.Th>Shirt</Table.Th>
            <Table.Th>Size</Table.Th>
            <Table.Th>Charity</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {entries.map((entry) => (
            <Table.Tr key={entry.id}>
              <Table.Td>{joined(entry.joinedAt)}</Table.Td>
              <Table.Td>{entry.name}</Table.Td>
              <Table.Td>{entry.email}</Table.Td>
              <Table.Td>{entry.shirtName ?? entry.shirtId}</Table.Td>
              <Table.Td>{entry.size}</Table.Td>
              <Table.Td>{entry.charityName ?? entry.charityId}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollingTable>
  );
}
