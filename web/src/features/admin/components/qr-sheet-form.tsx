import { Alert, Button, Group, Select, Stack, Text } from '@mantine/core';
import type { AdminWaitlistStats } from '@qrshirt/contracts';
import { useState } from 'react';
import { useDownloadQrSheet } from '../api/download-qr-sheet';

/**
 * The batch action: every waiting entry of a shirt in a size fulfilled at once (each person mailed
 * a claim link), and their QR codes as one PDF to print. The choices are the shirts and sizes
 * people joined the waitlist for.
 */
export function QrSheetForm({ stats }: { stats: AdminWaitlistStats }) {
  const [shirtId, setShirtId] = useState<string | null>(null);
  const [size, setSize] = useState<string | null>(null);
  const download = useDownloadQrSheet();
  const shirts = Object.keys(stats.byShirtAndSize).map((id) => ({ value: id, label: stats.shirtNames[id] ?? id }));
  const sizes = shirtId ? Object.keys(stats.byShirtAndSize[shirtId] ?? {}) : [];

  if (shirts.length === 0) return <Text c="dimmed">Nobody is on the waitlist, so there is nothing to print.</Text>;
  return (
    <form
      aria-label="QR sheet"
      onSubmit={(event) => {
        event.preventDefault();
        if (shirtId && size) download.mutate({ shirtId, size });
      }}
    >
      <Stack gap="md" maw={640}>
        <Text size="sm" c="dimmed">
          Fulfils every entry of the shirt in the size that is still waiting: each person is mailed a claim link, and
          their QR codes come as one PDF, each with its short code.
        </Text>
        <Group grow align="flex-end">
          <Select
            label="Shirt"
            placeholder="Choose a shirt"
            data={shirts}
            value={shirtId}
            onChange={(value) => {
              setShirtId(value);
              setSize(null);
            }}
          />
          <Select
            label="Size"
            placeholder="Choose a size"
            data={sizes}
            value={size}
            onChange={setSize}
            disabled={!shirtId}
          />
        </Group>
        {download.error && (
          <Alert color="red" title="No sheet printed">
            {download.error.message}
          </Alert>
        )}
        {download.isSuccess && <Text role="status">Downloaded {download.data}.</Text>}
        <Group>
          <Button type="submit" loading={download.isPending} disabled={!shirtId || !size}>
            Print QR sheet
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
