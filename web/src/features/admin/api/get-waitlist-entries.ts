import { type AdminWaitlistEntriesPage, adminWaitlistEntriesPage } from '@qrshirt/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { call } from '@/lib/api-client';

const WAITLIST_PAGE_SIZE = 25;

/** GET /api/admin/waitlist/entries: one page, newest first; `after` is the previous page's `next`. */
function getWaitlistEntries(after: number | null): Promise<AdminWaitlistEntriesPage> {
  return call('listWaitlistEntries', { query: { limit: WAITLIST_PAGE_SIZE, after }, schema: adminWaitlistEntriesPage });
}

const waitlistEntriesQueryOptions = (after: number | null) =>
  queryOptions({ queryKey: ['admin', 'waitlist', 'entries', after], queryFn: () => getWaitlistEntries(after) });

/** The page stays on screen while the next one loads. */
export function useWaitlistEntries(after: number | null) {
  return useQuery({ ...waitlistEntriesQueryOptions(after), placeholderData: keepPreviousData });
}
