import { Card, SegmentedControl, Stack, Text } from '@mantine/core';
import type { OutboxStatus } from '@qrshirt/contracts';
import { useState } from 'react';
import { useOutbox } from '@/features/admin/api/get-outbox';
import { Loaded } from '@/features/admin/components/loaded';
import { OutboxTable } from '@/features/admin/components/outbox-table';
import { PageHeader } from '@/features/admin/components/page-header';
import { Pager } from '@/features/admin/components/pager';
import { useCursorPages } from '@/features/admin/components/use-cursor-pages';

type Filter = OutboxStatus | 'all';

export function AdminOutboxRoute() {
  const [filter, setFilter] = useState<Filter>('all');
  const pages = useCursorPages();
  const outbox = useOutbox(filter === 'all' ? null : filter, pages.cursor);
  const counts = outbox.data?.counts;
  const label = (name: string, count: number | undefined) => (count === undefined ? name : `${name} (${count})`);

  return (
    <>
      <PageHeader
        title="Outbox"
        note="Every mail and text the shop sends: stored first, then delivered with retries for 24 hours. Addresses are masked."
      />
      <Stack gap="md">
        <SegmentedControl
          aria-label="Show messages"
          value={filter}
          onChange={(value) => {
            setFilter(value);
            pages.reset();
          }}
          data={[
            { value: 'all', label: 'All' },
            { value: 'queued', label: label('Waiting', counts?.queued) },
            { value: 'sent', label: label('Sent', counts?.sent) },
            { value: 'dead', label: label('Dead', counts?.dead) },
          ]}
        />
        <Card withBorder radius="md" padding="lg">
          <Loaded query={outbox} loading="Loading the outbox..." what="the outbox">
            {(data) => (
              <>
                <OutboxTable messages={data.messages} />
                <Pager
                  pages={pages}
                  next={data.nextCursor === null ? null : Number(data.nextCursor)}
                  loading={outbox.isPlaceholderData}
                />
              </>
            )}
          </Loaded>
        </Card>
        <Text size="sm" c="dimmed">
          A waiting message is tried again with a growing wait; after 24 hours it is dead. Retry sends it now, with a
          fresh 24 hours.
        </Text>
      </Stack>
    </>
  );
}
