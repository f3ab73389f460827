import type {
  adminEventRoutes,
  adminOutboxRoutes,
  adminProjectionRoutes,
  adminReconcileRoutes,
  adminReplayRoutes,
  adminWaitlistRoutes,
} from '@qrshirt/contracts';
import { type AdminCheck, createAdminCheck } from './require-admin';
import type { HandlersOf } from '../http/route-table';
import type { AdminDeps } from './admin-deps';
import { adminEventHandlers } from './admin-events';
import { adminOutboxHandlers } from './admin-outbox';
import { adminProjectionHandlers } from './admin-projections';
import { adminReconcileHandlers } from './admin-reconcile';
import { adminReplayHandlers } from './admin-replay';
import { adminWaitlistHandlers } from './admin-waitlist';
import type { RouteDeps } from '../route-deps';

/**
 * What under /api/admin the gateway answers itself (the route table guards each with the admin
 * check), one module per resource, and the admin check GET /api/me tells anyone signed in about.
 * The rest (the overview and funnel, the catalogue's review, the audit trail, a fundraiser's
 * figures, erasing a person) are their features' modules'.
 */
export function adminHandlers(deps: RouteDeps & { admin: AdminDeps }): {
  check: AdminCheck;
  handlers: HandlersOf<
    typeof adminWaitlistRoutes &
      typeof adminProjectionRoutes &
      typeof adminEventRoutes &
      typeof adminReplayRoutes &
      typeof adminReconcileRoutes &
      typeof adminOutboxRoutes
  >;
} {
  const check = createAdminCheck({ adminEmails: deps.admin.adminEmails, accounts: deps.accounts });
  return {
    check,
    handlers: {
      ...adminWaitlistHandlers(deps),
      ...adminProjectionHandlers(deps),
      ...adminEventHandlers(deps),
      ...adminReplayHandlers(deps),
      ...adminReconcileHandlers(deps),
      ...adminOutboxHandlers(deps),
    },
  };
}
