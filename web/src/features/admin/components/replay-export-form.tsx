import { Button, Group, SegmentedControl, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import {
  type AdminReplayFormat,
  type AdminReplayGroupBy,
  adminReplayFormats,
  adminReplayGroupings,
} from '@qrshirt/contracts';
import { useState } from 'react';
import { useDownloadReplay } from '../api/download-replay';

const groupLabels: Record<AdminReplayGroupBy, string> = {
  day: 'Per day',
  charity: 'Per charity',
  fundraiser: 'Per fundraiser',
  shirt: 'Per shirt',
};

/**
 * The analysts' export: scans, donations and amount raised replayed from the event log itself,
 * the file `npm run replay-donations` writes with the same options.
 */
export function ReplayExportForm() {
  const [groupBy, setGroupBy] = useState<AdminReplayGroupBy>('day');
  const [format, setFormat] = useState<AdminReplayFormat>('csv');
  const [dates, setDates] = useState({ from: '', to: '', asOf: '' });
  const download = useDownloadReplay();
  const date = (name: keyof typeof dates) => ({
    value: dates[name],
    onChange: (event: React.ChangeEvent<HTMLInputElement>) => {
      const { value } = event.currentTarget;
      setDates((current) => ({ ...current, [name]: value }));
    },
  });

  return (
    <form
      aria-label="Replay export"
      onSubmit={(event) => {
        event.preventDefault();
        download.mutate({ groupBy, format, ...dates });
      }}
    >
      <Stack gap="md" maw={640}>
        <Group grow align="flex-end">
          <Select
            label="Group by"
            value={groupBy}
            onChange={(value) => value && setGroupBy(value)}
            data={adminReplayGroupings.map((value) => ({ value, label: groupLabels[value] }))}
            allowDeselect={false}
          />
          <div>
            <Text size="sm" fw={500} mb={4} id="replay-format-label">
              Format
            </Text>
            <SegmentedControl
              aria-labelledby="replay-format-label"
              value={format}
              onChange={(value) => setFormat(value)}
              data={adminReplayFormats.map((value) => ({ value, label: value === 'csv' ? 'CSV' : 'NDJSON' }))}
            />
          </div>
        </Group>
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <TextInput
            label="From (UTC day)"
            description="Scans and donations on or after"
            type="date"
            {...date('from')}
          />
          <TextInput label="To (UTC day)" description="Scans and donations on or before" type="date" {...date('to')} />
          <TextInput
            label="As of (UTC day)"
            description="The log as it stood at that day's end"
            type="date"
            {...date('asOf')}
          />
        </SimpleGrid>
        {download.error && (
          <Text c="red" role="alert">
            {download.error.message}
          </Text>
        )}
        {download.isSuccess && <Text role="status">Downloaded {download.data}.</Text>}
        <Group>
          <Button type="submit" loading={download.isPending}>
            Download
          </Button>
          <Text size="sm" c="dimmed">
            Replays the whole event log: a large history takes a few seconds.
          </Text>
        </Group>
      </Stack>
    </form>
  );
}
