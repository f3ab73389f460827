import { Table } from '@mantine/core';
import type { AdminWaitlistEntry } from '@qrshirt/contracts';
import { formatDateTime } from '@/lib/format';
import { DataTable } from './data-table';

/** Who joined, newest first: name and email are for admins' eyes only. */
export function WaitlistEntriesTable({ entries }: { entries: AdminWaitlistEntry[] }) {
  return (
    <DataTable
      label="Waitlist entries"
      minWidth={720}
      empty="Nobody has joined the waitlist yet."
      striped
      rows={entries}
      head={
        <>
          <Table.Th>Joined</Table.Th>
          <Table.Th>Name</Table.Th>
          <Table.Th>Email</Table.Th>
          <Table.Th>Shirt</Table.Th>
          <Table.Th>Size</Table.Th>
          <Table.Th>Charity</Table.Th>
        </>
      }
    >
      {(entry) => (
        <Table.Tr key={entry.id}>
          <Table.Td>{formatDateTime(entry.joinedAt)}</Table.Td>
          <Table.Td>{entry.name}</Table.Td>
          <Table.Td>{entry.email}</Table.Td>
          <Table.Td>{entry.shirtName ?? entry.shirtId}</Table.Td>
          <Table.Td>{entry.size}</Table.Td>
          <Table.Td>{entry.charityName ?? entry.charityId}</Table.Td>
        </Table.Tr>
      )}
    </DataTable>
  );
}
