import type { Handlers } from '../http/route-table';
import type { AdminDeps } from './admin-deps';

/** The audit trail: which operator revealed, downloaded or erased people's data, and when. */
export function adminAuditHandlers({ admin }: { admin: AdminDeps }): Pick<Handlers, 'listAdminAudit'> {
  return {
    async listAdminAudit({ query }) {
      return { status: 200, body: await admin.audit.page(query) };
    },
  };
}
