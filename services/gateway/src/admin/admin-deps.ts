import type { AdminOutboxMessage, AdminOutboxPage, AdminOutboxQuery } from '@qrshirt/contracts';
import type { ProcessorBooks, ProjectionMonitor, RebuildJobs } from '@qrshirt/projections';

/** What the admin routes need beyond the shared route deps; built by the composition root. */
export interface AdminDeps {
  /** ADMIN_EMAILS, lower case. */
  adminEmails: readonly string[];
  projections: ProjectionMonitor;
  rebuilds: RebuildJobs;
  /** The mail outbox: its messages (addresses masked) and a retry; 'sent' when there is nothing to retry. */
  outbox: {
    list(query: AdminOutboxQuery): Promise<AdminOutboxPage>;
    retry(id: string): Promise<AdminOutboxMessage | 'sent' | null>;
  };
  /** Stripe's books, to reconcile with, in the mode of its keys; null without Stripe. */
  stripeBooks: { books: ProcessorBooks; live: boolean } | null;
}
