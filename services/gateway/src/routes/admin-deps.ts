import type { OverviewQueries, ProjectionMonitor, RebuildJobs } from '@qrshirt/projections';

/** What the admin routes need beyond the shared route deps; built by the composition root. */
export interface AdminDeps {
  /** ADMIN_EMAILS, lower case. */
  adminEmails: readonly string[];
  overview: OverviewQueries;
  projections: ProjectionMonitor;
  rebuilds: RebuildJobs;
}
