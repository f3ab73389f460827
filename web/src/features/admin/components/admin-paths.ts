/** The admin area's pages, built in one place so the side navigation cannot drift from the router. */
export const adminPaths = {
  overview: '/admin',
  funnel: '/admin/funnel',
  charities: '/admin/charities',
  shirts: '/admin/shirts',
  waitlist: '/admin/waitlist',
  projections: '/admin/projections',
  events: '/admin/events',
  replay: '/admin/replay',
  reconcile: '/admin/reconcile',
  outbox: '/admin/outbox',
  audit: '/admin/audit',
  fundraisers: '/admin/fundraisers',
  charityPayouts: (charityId: string) => `/admin/charities/${encodeURIComponent(charityId)}/payouts`,
} as const;
