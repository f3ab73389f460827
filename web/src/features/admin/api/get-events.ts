import { type AdminEventsPage, adminEventsPage } from '@qrshirt/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export const EVENTS_PAGE_SIZE = 25;

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
export function getEvents(filters: EventFilters, after: number | null): Promise<AdminEventsPage> {
  const query = new URLSearchParams({
    limit: String(EVENTS_PAGE_SIZE),
    order: filters.order,
    reveal: String(filters.reveal),
  });
  for (const name of ['streamPrefix', 'type', 'from', 'to'] as const) {
    const value = filters[name].trim();
    if (value) query.set(name, value);
  }
  if (after !== null) query.set('after', String(after));
  return api(`/api/admin/events?${query}`, { schema: adminEventsPage, requiresAuth: true });
}

export const eventsQueryOptions = (filters: EventFilters, after: number | null) =>
  queryOptions({ queryKey: ['admin', 'events', filters, after], queryFn: () => getEvents(filters, after) });

/** The page stays on screen while the next one loads. */
export function useEvents(filters: EventFilters, after: number | null) {
  return useQuery({ ...eventsQueryOptions(filters, after), placeholderData: keepPreviousData });
}
