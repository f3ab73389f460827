import { type AdminEventsPage, adminEventsPage } from '@qrshirt/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { call } from '@/lib/api-client';

const EVENTS_PAGE_SIZE = 25;

/** What the event browser filters by; empty texts do not filter. */
export interface EventFilters {
  streamPrefix: string;
  /** Event types, comma-separated. */
  type: string;
  /** Days (YYYY-MM-DD, UTC), both included. */
  from: string;
  to: string;
  order: 'newest' | 'oldest';
  /** Names and emails as stored instead of masked. */
  reveal: boolean;
}

export const noEventFilters: EventFilters = {
  streamPrefix: '',
  type: '',
  from: '',
  to: '',
  order: 'newest',
  reveal: false,
};

/** GET /api/admin/events: one page of the log; `after` is the previous page's `next`. */
function getEvents(filters: EventFilters, after: number | null): Promise<AdminEventsPage> {
  const given = (name: 'streamPrefix' | 'type' | 'from' | 'to') => filters[name].trim() || undefined;
  return call('listEvents', {
    query: {
      limit: EVENTS_PAGE_SIZE,
      order: filters.order,
      reveal: filters.reveal ? 'true' : 'false',
      streamPrefix: given('streamPrefix'),
      type: given('type'),
      from: given('from'),
      to: given('to'),
      after,
    },
    schema: adminEventsPage,
  });
}

const eventsQueryOptions = (filters: EventFilters, after: number | null) =>
  queryOptions({ queryKey: ['admin', 'events', filters, after], queryFn: () => getEvents(filters, after) });

/** The page stays on screen while the next one loads. */
export function useEvents(filters: EventFilters, after: number | null) {
  return useQuery({ ...eventsQueryOptions(filters, after), placeholderData: keepPreviousData });
}
