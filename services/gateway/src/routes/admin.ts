import { createAccounts } from '../auth/accounts';
import { type AdminCheck, createAdminCheck } from '../auth/require-admin';
import type { Handlers } from '../http/route-table';
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
import { meHandlers } from './me';
import type { RouteDeps } from './route-deps';

type AdminOperation =
  | 'getMe'
  | 'getAdminOverview'
  | 'getAdminFunnel'
  | 'listAdminCharities'
  | 'approveCharity'
  | 'rejectCharity'
  | 'adminCreateCharity'
  | 'adminUpdateCharity'
  | 'adminCreateShirt'
  | 'adminUpdateShirt'
  | 'getAdminWaitlistStats'
  | 'listWaitlistEntries'
  | 'downloadWaitlistCsv'
  | 'fulfilWaitlistEntry'
  | 'reissueClaimLink'
  | 'fulfilWaitlistBatch'
  | 'listOutbox'
  | 'retryOutboxMessage'
  | 'listProjections'
  | 'startRebuild'
  | 'getRebuild'
  | 'eraseUser'
  | 'listEvents'
  | 'downloadReplay'
  | 'listAdminAudit';

/**
 * Everything under /api/admin (the route table guards each with the admin check), one module per
 * resource, and GET /api/me, which tells anyone signed in whether they are an admin.
 */
export function adminHandlers(deps: RouteDeps & { admin: AdminDeps }): {
  check: AdminCheck;
  handlers: Pick<Handlers, AdminOperation>;
} {
  const check = createAdminCheck({ adminEmails: deps.admin.adminEmails, accounts: createAccounts(deps) });
  return {
    check,
    handlers: {
      ...meHandlers(check),
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
