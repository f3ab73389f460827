import type { adminFunnelRoutes, adminRoutes } from '@qrshirt/contracts';
import { createAccounts } from '../auth/accounts';
import { type AdminCheck, createAdminCheck } from '../auth/require-admin';
import type { HandlersOf } from '../http/route-table';
import { adminAuditHandlers } from './admin-audit';
import { adminCharityHandlers } from './admin-charities';
import type { AdminDeps } from './admin-deps';
import { adminEventHandlers } from './admin-events';
import { adminOutboxHandlers } from './admin-outbox';
import { adminOverviewHandlers } from './admin-overview';
import { adminProjectionHandlers } from './admin-projections';
import { adminReplayHandlers } from './admin-replay';
import { adminShirtHandlers } from './admin-shirts';
import { adminUserHandlers } from './admin-users';
import { adminWaitlistHandlers } from './admin-waitlist';
import type { RouteDeps } from './route-deps';

/**
 * Everything under /api/admin (the route table guards each with the admin check), one module per
 * resource, and the admin check GET /api/me tells anyone signed in about.
 */
export function adminHandlers(deps: RouteDeps & { admin: AdminDeps }): {
  check: AdminCheck;
  handlers: HandlersOf<typeof adminRoutes & typeof adminFunnelRoutes>;
} {
  const check = createAdminCheck({ adminEmails: deps.admin.adminEmails, accounts: createAccounts(deps) });
  return {
    check,
    handlers: {
      ...adminOverviewHandlers(deps),
      ...adminCharityHandlers(deps),
      ...adminShirtHandlers(deps),
      ...adminWaitlistHandlers(deps),
      ...adminProjectionHandlers(deps),
      ...adminUserHandlers(deps),
      ...adminEventHandlers(deps),
      ...adminReplayHandlers(deps),
      ...adminOutboxHandlers(deps),
      ...adminAuditHandlers(deps),
    },
  };
}
