import { type AdminAuditPage, adminAuditPage } from '@qrshirt/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { call } from '@/lib/api-client';

const AUDIT_PAGE_SIZE = 25;

/** GET /api/admin/audit: one page of the audit trail, newest first; `after` is the previous page's `next`. */
function getAudit(after: number | null): Promise<AdminAuditPage> {
  return call('listAdminAudit', { query: { limit: AUDIT_PAGE_SIZE, after }, schema: adminAuditPage });
}

const auditQueryOptions = (after: number | null) =>
  queryOptions({ queryKey: ['admin', 'audit', after], queryFn: () => getAudit(after) });

/** The page stays on screen while the next one loads. */
export function useAudit(after: number | null) {
  return useQuery({ ...auditQueryOptions(after), placeholderData: keepPreviousData });
}
