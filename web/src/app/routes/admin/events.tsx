import { Stack } from '@mantine/core';
import { useState } from 'react';
import { type EventFilters, noEventFilters, useEvents } from '@/features/admin/api/get-events';
import { EventFiltersForm } from '@/features/admin/components/event-filters-form';
import { EventList } from '@/features/admin/components/event-list';
import { Loaded } from '@/features/admin/components/loaded';
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
        <Loaded query={events} loading="Loading events..." what="the events">
          {(data) => (
            <div>
              <EventList events={data.events} more={data.next !== null} />
              <Pager pages={pages} next={data.next} loading={events.isPlaceholderData} />
            </div>
          )}
        </Loaded>
      </Stack>
    </>
  );
}
