import { Stack } from '@mantine/core';
import { useState } from 'react';
import { PageLoader } from '@/components/page-loader';
import { type EventFilters, noEventFilters, useEvents } from '@/features/admin/api/get-events';
import { EventFiltersForm } from '@/features/admin/components/event-filters-form';
import { EventList } from '@/features/admin/components/event-list';
import { LoadFailed } from '@/features/admin/components/load-failed';
import { PageHeader } from '@/features/admin/components/page-header';
import { Pager } from '@/features/admin/components/pager';
import { useCursorPages } from '@/features/admin/components/use-cursor-pages';

export function AdminEventsRoute() {
  const [filters, setFilters] = useState<EventFilters>(noEventFilters);
  const pages = useCursorPages();
  const events = useEvents(filters, pages.cursor);
  const apply = (next: EventFilters) => {
    setFilters(next);
    pages.reset();
  };

  return (
    <>
      <PageHeader
        title="Event browser"
        note="The event log itself. Names and emails stay masked unless you reveal them."
      />
      <Stack gap="md">
        <EventFiltersForm filters={filters} onApply={apply} />
        {events.isPending ? (
          <PageLoader label="Loading events..." />
        ) : events.isError ? (
          <LoadFailed what="the events" error={events.error} onRetry={() => void events.refetch()} />
        ) : (
          <div>
            <EventList events={events.data.events} />
            <Pager
              page={pages.page}
              hasPrevious={pages.hasPrevious}
              next={events.data.next}
              loading={events.isPlaceholderData}
              onPrevious={pages.previous}
              onNext={pages.next}
            />
          </div>
        )}
      </Stack>
    </>
  );
}
