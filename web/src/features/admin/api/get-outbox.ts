import { type AdminOutboxPage, adminOutboxPage, type OutboxStatus } from '@qrshirt/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { call } from '@/lib/api-client';

const OUTBOX_PAGE_SIZE = 25;

/** GET /api/admin/outbox: one page of messages, newest first, and the count per status. */
function getOutbox(status: OutboxStatus | null, cursor: number | null): Promise<AdminOutboxPage> {
  return call('listOutbox', {
    query: {
      limit: OUTBOX_PAGE_SIZE,
      status: status ?? undefined,
      cursor: cursor === null ? undefined : String(cursor),
    },
    schema: adminOutboxPage,
  });
}

const outboxQueryOptions = (status: OutboxStatus | null, cursor: number | null) =>
  queryOptions({ queryKey: ['admin', 'outbox', status, cursor], queryFn: () => getOutbox(status, cursor) });

/** The page stays on screen while the next one loads. */
export function useOutbox(status: OutboxStatus | null, cursor: number | null) {
  return useQuery({ ...outboxQueryOptions(status, cursor), placeholderData: keepPreviousData });
}
