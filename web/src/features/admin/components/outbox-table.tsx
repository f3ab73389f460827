import { Badge, Button, Table, Text, VisuallyHidden } from '@mantine/core';
import type { AdminOutboxMessage, OutboxStatus } from '@qrshirt/contracts';
import { formatDateTime } from '@/lib/format';
import { useRetryOutboxMessage } from '../api/retry-outbox-message';
import { DataTable } from './data-table';

const at = (time: string | null) => (time ? formatDateTime(time) : '');

const statusColor: Record<OutboxStatus, string> = { queued: 'blue', sent: 'green', dead: 'red' };

/** `webhook`: the demo processor's signed webhooks to this product. */
const channelNames: Record<AdminOutboxMessage['channel'], string> = { email: 'Email', sms: 'SMS', webhook: 'Webhook' };

/** Each message with its state; a waiting or dead one can be sent again now. */
export function OutboxTable({ messages }: { messages: AdminOutboxMessage[] }) {
  const retry = useRetryOutboxMessage();
  // Before the retry's error: with no messages left, that error has no row to go with.
  if (messages.length === 0) return <Text c="dimmed">No messages here.</Text>;
  return (
    <>
      {retry.isError && (
        <Text c="red.8" role="alert" mb="sm">
          {retry.error.message}
        </Text>
      )}
      <DataTable
        label="Outbox messages"
        minWidth={960}
        striped
        rows={messages}
        head={
          <>
            <Table.Th>Created</Table.Th>
            <Table.Th>Channel</Table.Th>
            <Table.Th>To</Table.Th>
            <Table.Th>Subject</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th>Tries</Table.Th>
            <Table.Th>Next try / sent</Table.Th>
            <Table.Th>Last error</Table.Th>
            <Table.Th>
              <VisuallyHidden>Actions</VisuallyHidden>
            </Table.Th>
          </>
        }
      >
        {(message) => (
          <Table.Tr key={message.id} data-testid="outbox-message">
            <Table.Td>{at(message.createdAt)}</Table.Td>
            <Table.Td>{channelNames[message.channel]}</Table.Td>
            <Table.Td>{message.to}</Table.Td>
            <Table.Td>{message.subject}</Table.Td>
            <Table.Td>
              <Badge color={statusColor[message.status]} variant="light">
                {message.status}
              </Badge>
            </Table.Td>
            <Table.Td>{message.attempts}</Table.Td>
            <Table.Td>{at(message.sentAt ?? message.nextAttemptAt)}</Table.Td>
            <Table.Td>{message.lastError ?? ''}</Table.Td>
            <Table.Td>
              {message.status !== 'sent' && (
                <Button
                  size="xs"
                  variant="default"
                  loading={retry.isPending && retry.variables === message.id}
                  onClick={() => retry.mutate(message.id)}
                  aria-label={`Retry the message to ${message.to}: ${message.subject}`}
                >
                  Retry
                </Button>
              )}
            </Table.Td>
          </Table.Tr>
        )}
      </DataTable>
    </>
  );
}
