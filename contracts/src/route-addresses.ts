import type { RouteDefinition } from './route';
import type { ApiRoutes, OperationId } from './routes';

/** What a client needs to address an operation, and whether it sends the session's token. */
export type RouteAddress = Pick<RouteDefinition, 'method' | 'path' | 'auth'>;

/**
 * Every operation's method, path and auth, without its schemas. The route table holds them too,
 * but importing it builds every zod schema of the API: a page that calls three operations would
 * load them all (the server-rendered pages load only the schemas they parse, in steps). So the
 * clients address operations through this table, and parse answers with the schemas each feature
 * imports. The type below holds it to the route table: an operation added, renamed or moved
 * there fails `tsc` here until this line says the same.
 */
export const routeAddresses = {
  // rest/users.ts
  syncUser: { method: 'post', path: '/api/user', auth: 'user' },
  changeEmail: { method: 'post', path: '/api/user/{id}/email', auth: 'user' },
  getUser: { method: 'get', path: '/api/user/{id}', auth: 'any' },
  updateProfile: { method: 'patch', path: '/api/user/{id}', auth: 'any' },
  closeAccount: { method: 'delete', path: '/api/user/{id}', auth: 'user' },
  exportUserData: { method: 'get', path: '/api/user/{id}/export', auth: 'user' },
  getUserStats: { method: 'get', path: '/api/user/{id}/stats', auth: 'any' },
  streamUserStats: { method: 'get', path: '/api/user/{id}/live', auth: 'any' },
  // rest/charities.ts
  listCharities: { method: 'get', path: '/api/charities', auth: 'none' },
  getCharity: { method: 'get', path: '/api/charity/{id}', auth: 'none' },
  createCharity: { method: 'post', path: '/api/charity', auth: 'user' },
  listOwnCharities: { method: 'get', path: '/api/user/{id}/charities', auth: 'user' },
  // rest/shirts.ts
  listShirts: { method: 'get', path: '/api/shirts', auth: 'none' },
  getShirt: { method: 'get', path: '/api/shirt/{id}', auth: 'none' },
  // rest/waitlist.ts
  joinWaitlist: { method: 'post', path: '/api/waitlist', auth: 'none' },
  getWaitlistStats: { method: 'get', path: '/api/waitlist', auth: 'none' },
  confirmWaitlistEntry: { method: 'post', path: '/api/waitlist/confirm', auth: 'none' },
  removeWaitlistEntry: { method: 'post', path: '/api/waitlist/remove', auth: 'none' },
  // rest/fundraisers.ts
  createFundraiser: { method: 'post', path: '/api/fundraisers', auth: 'user' },
  getFundraiser: { method: 'get', path: '/api/fundraisers/{id}', auth: 'none' },
  updateFundraiser: { method: 'patch', path: '/api/fundraisers/{id}', auth: 'any' },
  recordScan: { method: 'post', path: '/api/fundraisers/{id}/scan', auth: 'none' },
  donate: { method: 'post', path: '/api/fundraisers/{id}/donate', auth: 'none' },
  createCheckout: { method: 'post', path: '/api/fundraisers/{id}/checkout', auth: 'none' },
  getFundraiserStats: { method: 'get', path: '/api/fundraisers/{id}/stats', auth: 'any' },
  getAdminFundraiserStats: { method: 'get', path: '/api/admin/fundraisers/{id}/stats', auth: 'admin' },
  getQrSvg: { method: 'get', path: '/api/fundraisers/{id}/qr.svg', auth: 'none' },
  getQrPng: { method: 'get', path: '/api/fundraisers/{id}/qr.png', auth: 'none' },
  streamFundraiserStats: { method: 'get', path: '/api/fundraisers/{id}/live', auth: 'any' },
  // rest/claims.ts
  createClaim: { method: 'post', path: '/api/claims', auth: 'user' },
  // rest/unsubscribe.ts
  unsubscribe: { method: 'post', path: '/api/unsubscribe', auth: 'none' },
  // rest/donations.ts
  receiveDonationWebhook: { method: 'post', path: '/api/webhooks/donations', auth: 'none' },
  createDemoDonation: { method: 'post', path: '/api/demo-processor/donations', auth: 'none' },
  receiveStripeWebhook: { method: 'post', path: '/api/webhooks/stripe', auth: 'none' },
  // rest/analytics.ts
  recordAnalytics: { method: 'post', path: '/api/analytics', auth: 'none' },
  // rest/auth.ts
  signUp: { method: 'post', path: '/api/auth/signup', auth: 'none' },
  signIn: { method: 'post', path: '/api/auth/signin', auth: 'none' },
  startAnonymousSession: { method: 'post', path: '/api/auth/anonymous', auth: 'none' },
  refreshSession: { method: 'post', path: '/api/auth/refresh', auth: 'none' },
  signOut: { method: 'post', path: '/api/auth/signout', auth: 'none' },
  signOutEverywhere: { method: 'post', path: '/api/auth/signout-everywhere', auth: 'user' },
  startGoogleSignIn: { method: 'get', path: '/api/auth/google', auth: 'none' },
  googleCallback: { method: 'get', path: '/api/auth/google/callback', auth: 'none' },
  exchangeGoogleCode: { method: 'post', path: '/api/auth/exchange', auth: 'none' },
  startPhoneSignIn: { method: 'post', path: '/api/auth/phone/start', auth: 'none' },
  confirmPhoneSignIn: { method: 'post', path: '/api/auth/phone/confirm', auth: 'none' },
  requestPasswordReset: { method: 'post', path: '/api/auth/password-reset', auth: 'none' },
  confirmPasswordReset: { method: 'post', path: '/api/auth/password-reset/confirm', auth: 'none' },
  verifyEmail: { method: 'post', path: '/api/auth/verify-email', auth: 'none' },
  previewEmailLink: { method: 'post', path: '/api/auth/verify-email/preview', auth: 'none' },
  resendVerification: { method: 'post', path: '/api/auth/verify-email/resend', auth: 'user' },
  getMe: { method: 'get', path: '/api/me', auth: 'any' },
  // rest/admin.ts
  getAdminOverview: { method: 'get', path: '/api/admin/overview', auth: 'admin' },
  listAdminCharities: { method: 'get', path: '/api/admin/charities', auth: 'admin' },
  approveCharity: { method: 'post', path: '/api/admin/charities/{id}/approve', auth: 'admin' },
  rejectCharity: { method: 'post', path: '/api/admin/charities/{id}/reject', auth: 'admin' },
  adminCreateCharity: { method: 'post', path: '/api/admin/charities', auth: 'admin' },
  adminUpdateCharity: { method: 'put', path: '/api/admin/charities/{id}', auth: 'admin' },
  adminCreateShirt: { method: 'post', path: '/api/admin/shirts', auth: 'admin' },
  adminUpdateShirt: { method: 'put', path: '/api/admin/shirts/{id}', auth: 'admin' },
  getAdminWaitlistStats: { method: 'get', path: '/api/admin/waitlist', auth: 'admin' },
  listWaitlistEntries: { method: 'get', path: '/api/admin/waitlist/entries', auth: 'admin' },
  downloadWaitlistCsv: { method: 'get', path: '/api/admin/waitlist/entries.csv', auth: 'admin' },
  fulfilWaitlistEntry: { method: 'post', path: '/api/admin/waitlist/entries/{entryId}/fulfil', auth: 'admin' },
  reissueClaimLink: { method: 'post', path: '/api/admin/waitlist/entries/{entryId}/claim-link', auth: 'admin' },
  fulfilWaitlistBatch: { method: 'post', path: '/api/admin/waitlist/fulfil', auth: 'admin' },
  listOutbox: { method: 'get', path: '/api/admin/outbox', auth: 'admin' },
  retryOutboxMessage: { method: 'post', path: '/api/admin/outbox/{id}/retry', auth: 'admin' },
  listProjections: { method: 'get', path: '/api/admin/projections', auth: 'admin' },
  startRebuild: { method: 'post', path: '/api/admin/projections/{name}/rebuild', auth: 'admin' },
  getRebuild: { method: 'get', path: '/api/admin/projections/{name}/rebuild', auth: 'admin' },
  eraseUser: { method: 'delete', path: '/api/admin/users/{id}', auth: 'admin' },
  listEvents: { method: 'get', path: '/api/admin/events', auth: 'admin' },
  downloadReplay: { method: 'get', path: '/api/admin/replay', auth: 'admin' },
  listAdminAudit: { method: 'get', path: '/api/admin/audit', auth: 'admin' },
  // rest/admin-funnel.ts
  getAdminFunnel: { method: 'get', path: '/api/admin/funnel', auth: 'admin' },
  // rest/admin-reconcile.ts
  reconcile: { method: 'get', path: '/api/admin/reconcile', auth: 'admin' },
  // rest/payouts.ts
  getCharityPayouts: { method: 'get', path: '/api/admin/charities/{id}/payouts', auth: 'admin' },
  startCharityPayouts: { method: 'post', path: '/api/admin/charities/{id}/payouts', auth: 'admin' },
  getOwnCharityPayouts: { method: 'get', path: '/api/charity/{id}/payouts', auth: 'user' },
  startOwnCharityPayouts: { method: 'post', path: '/api/charity/{id}/payouts', auth: 'user' },
  // rest/api-description.ts
  getOpenApi: { method: 'get', path: '/api/openapi.json', auth: 'none' },
  // rest/proof-of-work.ts
  getChallenge: { method: 'get', path: '/api/challenge', auth: 'none' },
} as const satisfies { [Id in OperationId]: Pick<ApiRoutes[Id], keyof RouteAddress> };
