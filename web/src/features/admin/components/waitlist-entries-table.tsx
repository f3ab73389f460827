import { Anchor, Badge, Button, Group, Table, Text, VisuallyHidden } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { AdminWaitlistEntry, FulfilledWaitlistEntry, WaitlistEntryStatus } from '@qrshirt/contracts';
import { formatDateTime } from '@/lib/format';
import { apiUrl } from '@/lib/http';
import { showErrorToast } from '@/lib/toast';
import { useFulfilWaitlistEntry } from '../api/fulfil-waitlist-entry';
import { useReissueClaimLink } from '../api/reissue-claim-link';
import { DataTable } from './data-table';

/** What a removed entry's person left: their name and email were erased with their key. */
const shown = (value: string | null) => value ?? '(erased)';

const statusColor: Record<WaitlistEntryStatus, string> = {
  unconfirmed: 'yellow',
  waiting: 'gray',
  fulfilled: 'blue',
  claimed: 'green',
  removed: 'red',
};

/** Where to get the new fundraiser's QR code for printing, and its short code for the shirt's tag. */
function FulfilledMessage({ entry, fulfilled }: { entry: AdminWaitlistEntry; fulfilled: FulfilledWaitlistEntry }) {
  return (
    <>
      <Text size="sm">
        {shown(entry.name)} has been mailed a claim link. Short code: {fulfilled.fundraiser.id}
      </Text>
      <Group gap="sm" mt={4}>
        <Anchor href={apiUrl(fulfilled.qr.svg)} target="_blank" rel="noreferrer" size="sm">
          QR code (SVG)
        </Anchor>
        <Anchor href={apiUrl(fulfilled.qr.png)} target="_blank" rel="noreferrer" size="sm">
          QR code (PNG)
        </Anchor>
      </Group>
    </>
  );
}

/** Who joined, newest first, and how far each entry is: name and email are for admins' eyes only. */
export function WaitlistEntriesTable({ entries }: { entries: AdminWaitlistEntry[] }) {
  const fulfil = useFulfilWaitlistEntry();
  const fulfilEntry = (entry: AdminWaitlistEntry) =>
    fulfil.mutate(entry.id, {
      onSuccess: (fulfilled) =>
        notifications.show({
          title: `${entry.shirtName ?? entry.shirtId} fulfilled`,
          message: <FulfilledMessage entry={entry} fulfilled={fulfilled} />,
          color: 'green',
          withBorder: true,
          // The links are what the operator prints from: the toast waits to be closed.
          autoClose: false,
        }),
      onError: (error) => showErrorToast('Not fulfilled', error.message),
    });
  const reissue = useReissueClaimLink();
  const reissueLink = (entry: AdminWaitlistEntry) =>
    reissue.mutate(entry.id, {
      onSuccess: () =>
        notifications.show({
          title: 'Claim link mailed',
          message: `${shown(entry.name)} has been mailed a new claim link, good for 30 days. The earlier link no longer works.`,
          color: 'green',
          withBorder: true,
        }),
      onError: (error) => showErrorToast('No new claim link', error.message),
    });

  return (
    <DataTable
      label="Waitlist entries"
      minWidth={900}
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
          <Table.Th>Status</Table.Th>
          <Table.Th>
            <VisuallyHidden>Actions</VisuallyHidden>
          </Table.Th>
        </>
      }
    >
      {(entry) => (
        <Table.Tr key={entry.id} data-testid="waitlist-entry">
          <Table.Td>{formatDateTime(entry.joinedAt)}</Table.Td>
          <Table.Td>{shown(entry.name)}</Table.Td>
          <Table.Td>{shown(entry.email)}</Table.Td>
          <Table.Td>{entry.shirtName ?? entry.shirtId}</Table.Td>
          <Table.Td>{entry.size}</Table.Td>
          <Table.Td>{entry.charityName ?? entry.charityId}</Table.Td>
          <Table.Td>
            {/* The dot carries the colour: a light badge's green text on a striped row is below AA contrast. */}
            <Badge color={statusColor[entry.status]} variant="dot">
              {entry.status}
            </Badge>
          </Table.Td>
          <Table.Td>
            {entry.status === 'waiting' && (
              <Button
                size="xs"
                variant="default"
                loading={fulfil.isPending && fulfil.variables === entry.id}
                onClick={() => fulfilEntry(entry)}
                aria-label={`Fulfil the entry of ${shown(entry.name)} (${shown(entry.email)})`}
              >
                Fulfil
              </Button>
            )}
            {entry.status === 'fulfilled' && (
              <Button
                size="xs"
                variant="default"
                loading={reissue.isPending && reissue.variables === entry.id}
                onClick={() => reissueLink(entry)}
                aria-label={`Resend claim link to ${shown(entry.name)} (${shown(entry.email)})`}
              >
                Resend claim link
              </Button>
            )}
          </Table.Td>
        </Table.Tr>
      )}
    </DataTable>
  );
}
