import { Router } from 'express';
import { createAccounts } from '../auth/accounts';
import { createAdminCheck } from '../auth/require-admin';
import type { AdminDeps } from './admin-deps';
import { adminCharityRoutes } from './admin-charities';
import { adminEventRoutes } from './admin-events';
import { adminOutboxRoutes } from './admin-outbox';
import { adminOverviewRoutes } from './admin-overview';
import { adminProjectionRoutes } from './admin-projections';
import { adminReplayRoutes } from './admin-replay';
import { adminShirtRoutes } from './admin-shirts';
import { adminWaitlistRoutes } from './admin-waitlist';
import { meRoutes } from './me';
import type { RouteDeps } from './route-deps';

/**
 * Everything under /api/admin, behind requireAdmin (401 without a token, 403 for anyone but an
 * admin, also for paths that do not exist). One router per resource. GET /api/me tells anyone
 * signed in whether they are an admin.
 */
export function adminRoutes(deps: RouteDeps & { admin: AdminDeps }): Router {
  const check = createAdminCheck({ adminEmails: deps.admin.adminEmails, accounts: createAccounts(deps) });
  return Router()
    .use(meRoutes(check))
    .use('/api/admin', check.requireAdmin)
    .use(adminOverviewRoutes(deps))
    .use(adminCharityRoutes(deps))
    .use(adminShirtRoutes(deps))
    .use(adminWaitlistRoutes(deps))
    .use(adminProjectionRoutes(deps))
    .use(adminEventRoutes(deps))
    .use(adminReplayRoutes(deps))
    .use(adminOutboxRoutes(deps));
}
