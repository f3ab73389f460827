import { type AdminOutboxPage, adminOutboxPage, type OutboxStatus } from '@qrshirt/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export const OUTBOX_PAGE_SIZE = 25;

/** GET /api/admin/outbox: one page of messages, newest first, and the count per status. */
export function getOutbox(status: OutboxStatus | null, cursor: number | null): Promise<AdminOutboxPage> {
  const query = new URLSearchParams({
    limit: String(OUTBOX_PAGE_SIZE),
    ...(status !== null && { status }),
    ...(cursor !== null && { cursor: String(cursor) }),
  });
  return api(`/api/admin/outbox?${query}`, { schema: adminOutboxPage, requiresAuth: true });
}

export const outboxQueryOptions = (status: OutboxStatus | null, cursor: number | null) =>
  queryOptions({ queryKey: ['admin', 'outbox', status, cursor], queryFn: () => getOutbox(status, cursor) });

/** The page stays on screen while the next one loads. */
export function useOutbox(status: OutboxStatus | null, cursor: number | null) {
  return useQuery({ ...outboxQueryOptions(status, cursor), placeholderData: keepPreviousData });
}
