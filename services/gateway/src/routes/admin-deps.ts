import type { AdminAuditQueries, OverviewQueries } from '@qrshirt/core';
import type {
  AdminFunnel,
  AdminFunnelQuery,
  AdminOutboxMessage,
  AdminOutboxPage,
  AdminOutboxQuery,
} from '@qrshirt/contracts';
import type { ProjectionMonitor, RebuildJobs } from '@qrshirt/projections';

/** What the admin routes need beyond the shared route deps; built by the composition root. */
export interface AdminDeps {
  /** ADMIN_EMAILS, lower case. */
  adminEmails: readonly string[];
  overview: OverviewQueries;
  /** The funnel over a range of days; the range defaults from today's date. */
  funnel(query: AdminFunnelQuery): Promise<AdminFunnel>;
  projections: ProjectionMonitor;
  rebuilds: RebuildJobs;
  /** The mail outbox: its messages (addresses masked) and a retry; 'sent' when there is nothing to retry. */
  outbox: {
    list(query: AdminOutboxQuery): Promise<AdminOutboxPage>;
    retry(id: string): Promise<AdminOutboxMessage | 'sent' | null>;
  };
  /** The audit trail's read model. */
  audit: AdminAuditQueries;
}
