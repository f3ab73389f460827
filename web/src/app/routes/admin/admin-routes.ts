import type { RouteObject } from 'react-router';

/**
 * /admin/*: the layout checks the user is an admin, each page's code loads on its first visit, so
 * none of it is in the bundle every shop visitor downloads. Sits behind the protected route.
 */
export const adminRoutes: RouteObject[] = [
  {
    path: '/admin',
    lazy: async () => ({ Component: (await import('./admin-layout')).AdminLayoutRoute }),
    children: [
      { index: true, lazy: async () => ({ Component: (await import('./overview')).AdminOverviewRoute }) },
      { path: 'funnel', lazy: async () => ({ Component: (await import('./funnel')).AdminFunnelRoute }) },
      { path: 'charities', lazy: async () => ({ Component: (await import('./charities')).AdminCharitiesRoute }) },
      {
        path: 'charities/:id/payouts',
        lazy: async () => ({ Component: (await import('./charity-payouts')).AdminCharityPayoutsRoute }),
      },
      { path: 'shirts', lazy: async () => ({ Component: (await import('./shirts')).AdminShirtsRoute }) },
      { path: 'waitlist', lazy: async () => ({ Component: (await import('./waitlist')).AdminWaitlistRoute }) },
      { path: 'projections', lazy: async () => ({ Component: (await import('./projections')).AdminProjectionsRoute }) },
      { path: 'events', lazy: async () => ({ Component: (await import('./events')).AdminEventsRoute }) },
      { path: 'replay', lazy: async () => ({ Component: (await import('./replay')).AdminReplayRoute }) },
      { path: 'reconcile', lazy: async () => ({ Component: (await import('./reconcile')).AdminReconcileRoute }) },
      { path: 'outbox', lazy: async () => ({ Component: (await import('./outbox')).AdminOutboxRoute }) },
      { path: 'audit', lazy: async () => ({ Component: (await import('./audit')).AdminAuditRoute }) },
      {
        path: 'fundraisers',
        lazy: async () => ({ Component: (await import('./fundraiser-stats')).AdminFundraiserStatsRoute }),
      },
    ],
  },
];
