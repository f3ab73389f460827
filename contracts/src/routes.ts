import { adminRoutes } from './rest/admin';
import { adminFunnelRoutes } from './rest/admin-funnel';
import { adminReconcileRoutes } from './rest/admin-reconcile';
import { analyticsRoutes } from './rest/analytics';
import { apiDescriptionRoutes } from './rest/api-description';
import { authRoutes, meRoutes } from './rest/auth';
import { charityRoutes } from './rest/charities';
import { claimRoutes } from './rest/claims';
import { donationRoutes } from './rest/donations';
import {
  donateRoutes,
  fundraiserQrRoutes,
  fundraiserRoutes,
  fundraiserStreamRoutes,
  scanRoutes,
} from './rest/fundraisers';
import { charityPayoutRoutes } from './rest/payouts';
import { proofOfWorkRoutes } from './rest/proof-of-work';
import { shirtRoutes } from './rest/shirts';
import { unsubscribeRoutes } from './rest/unsubscribe';
import { userRoutes, userStatsRoutes, userStreamRoutes } from './rest/users';
import { waitlistRoutes } from './rest/waitlist';
import { type RouteDefinition, withCommonAnswers } from './route';

const declared = {
  ...userRoutes,
  ...userStatsRoutes,
  ...userStreamRoutes,
  ...charityRoutes,
  ...shirtRoutes,
  ...waitlistRoutes,
  ...fundraiserRoutes,
  ...fundraiserQrRoutes,
  ...donateRoutes,
  ...scanRoutes,
  ...fundraiserStreamRoutes,
  ...claimRoutes,
  ...unsubscribeRoutes,
  ...donationRoutes,
  ...analyticsRoutes,
  ...authRoutes,
  ...meRoutes,
  ...adminRoutes,
  ...adminFunnelRoutes,
  ...adminReconcileRoutes,
  ...charityPayoutRoutes,
  ...apiDescriptionRoutes,
  ...proofOfWorkRoutes,
};

/** Every REST operation of the product by its operation id, as each resource's file declares it. */
export type ApiRoutes = typeof declared;
export type OperationId = keyof ApiRoutes;

/**
 * The route table: the gateway serves exactly these, the OpenAPI document describes them, and
 * the tests check every answer against them. Each carries the answers common to its kind.
 */
export const apiRoutes = Object.fromEntries(
  Object.entries(declared).map(([id, route]) => [id, withCommonAnswers(route)]),
) as ApiRoutes;

/** Every route as a list, with its operation id. */
export const apiRouteList: readonly (RouteDefinition & { operationId: OperationId })[] = Object.entries(apiRoutes).map(
  ([operationId, route]) => ({ ...(route as RouteDefinition), operationId: operationId as OperationId }),
);
