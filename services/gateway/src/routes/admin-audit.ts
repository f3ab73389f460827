import type { adminAuditRoutes } from '@qrshirt/contracts';
import type { HandlersOf } from '../http/route-table';
import type { AdminDeps } from './admin-deps';

/** The audit trail: which operator revealed, downloaded or erased people's data, and when. */
export function adminAuditHandlers({ admin }: { admin: AdminDeps }): HandlersOf<typeof adminAuditRoutes> {
  return {
    async listAdminAudit({ query }) {
      return { status: 200, body: await admin.audit.page(query) };
    },
  };
}
