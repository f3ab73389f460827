import { Table, Text } from '@mantine/core';
import type { AdminAuditAction, AdminAuditEntry } from '@qrshirt/contracts';
import { formatDateTime } from '@/lib/format';
import { DataTable } from './data-table';

const actionNames: Record<AdminAuditAction, string> = {
  'reveal-events': 'Revealed names and emails in the event browser',
  'list-waitlist-entries': 'Viewed waitlist entries',
  'download-waitlist-csv': 'Downloaded the waitlist CSV',
  'download-replay': 'Downloaded the replay export',
  'erase-user': 'Erased a person',
};

/** The request's parameters as the admin screens name them; an unknown one by its own name. */
const parameterNames: Record<string, string> = {
  streamPrefix: 'Stream prefix',
  type: 'Types',
  from: 'From',
  to: 'To',
  asOf: 'As of',
  after: 'After position',
  limit: 'Page size',
  order: 'Order',
  groupBy: 'Group by',
  format: 'Format',
  userId: 'User',
};

/** "Types: WaitlistJoined; Page size: 50", or what no parameter means for the action. */
function subjectText({ action, subject }: AdminAuditEntry): string {
  const parts = Object.entries(subject).map(([key, value]) => `${parameterNames[key] ?? key}: ${value}`);
  if (parts.length > 0) return parts.join('; ');
  return action === 'download-waitlist-csv' ? 'Every entry' : 'No filters';
}

/** Who revealed, downloaded or erased people's data, and when: the newest first. */
export function AuditTable({ entries }: { entries: AdminAuditEntry[] }) {
  return (
    <DataTable
      label="Audit trail"
      minWidth={760}
      striped
      rows={entries}
      empty="Nobody has revealed, downloaded or erased anyone's data yet."
      head={
        <>
          <Table.Th>Time</Table.Th>
          <Table.Th>Admin</Table.Th>
          <Table.Th>Action</Table.Th>
          <Table.Th>Subject</Table.Th>
        </>
      }
    >
      {(entry) => (
        <Table.Tr key={entry.position} data-testid="audit-entry">
          <Table.Td>{formatDateTime(entry.at)}</Table.Td>
          <Table.Td>
            <Text span ff="monospace" size="sm">
              {entry.adminId}
            </Text>
          </Table.Td>
          <Table.Td>{actionNames[entry.action]}</Table.Td>
          <Table.Td>{subjectText(entry)}</Table.Td>
        </Table.Tr>
      )}
    </DataTable>
  );
}
