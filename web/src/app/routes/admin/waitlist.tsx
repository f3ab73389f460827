import { Button, Card, Stack, Text, Title } from '@mantine/core';
import { useDownloadWaitlistCsv } from '@/features/admin/api/download-waitlist-csv';
import { useWaitlistEntries } from '@/features/admin/api/get-waitlist-entries';
import { useWaitlistStats } from '@/features/admin/api/get-waitlist-stats';
import { Loaded } from '@/features/admin/components/loaded';
import { PageHeader } from '@/features/admin/components/page-header';
import { Pager } from '@/features/admin/components/pager';
import { QrSheetForm } from '@/features/admin/components/qr-sheet-form';
import { SectionCard } from '@/features/admin/components/section-card';
import { useCursorPages } from '@/features/admin/components/use-cursor-pages';
import { WaitlistCounts } from '@/features/admin/components/waitlist-counts';
import { WaitlistEntriesTable } from '@/features/admin/components/waitlist-entries-table';

export function AdminWaitlistRoute() {
  const stats = useWaitlistStats();
  const pages = useCursorPages();
  const entries = useWaitlistEntries(pages.cursor);
  const csv = useDownloadWaitlistCsv();

  return (
    <>
      <PageHeader
        title="Waitlist"
        note="Who is waiting for which shirt, in which size, for which charity."
        action={
          <Button variant="default" loading={csv.isPending} onClick={() => csv.mutate()}>
            Download CSV
          </Button>
        }
      />
      <Stack gap="lg">
        {csv.error && (
          <Text c="red" role="alert">
            {csv.error.message}
          </Text>
        )}
        <Loaded query={stats} loading="Loading the counts..." what="the counts">
          {(data) => (
            <>
              <WaitlistCounts stats={data} />
              <SectionCard title="Print QR sheet">
                <QrSheetForm stats={data} />
              </SectionCard>
            </>
          )}
        </Loaded>
        <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="waitlist-entries-title">
          <Title order={2} size="h4" mb="md" id="waitlist-entries-title">
            Entries
          </Title>
          <Loaded query={entries} loading="Loading entries..." what="the entries">
            {(data) => (
              <>
                <WaitlistEntriesTable entries={data.entries} />
                <Pager pages={pages} next={data.next} loading={entries.isPlaceholderData} />
              </>
            )}
          </Loaded>
        </Card>
      </Stack>
    </>
  );
}
