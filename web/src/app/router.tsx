import { createBrowserRouter, type RouteObject } from 'react-router';
import { AppLayout } from '@/components/layout/app-layout';
import { PageLoader } from '@/components/page-loader';
import { AdminNavLink } from '@/features/admin/components/admin-nav-link';
import { adminRoutes } from './routes/admin/admin-routes';
import { RouteError } from './routes/route-error';

/** Spec section 2. Each screen's code loads when it is first visited. */
const routes: RouteObject[] = [
  {
    element: <AppLayout extraLinks={AdminNavLink} />,
    HydrateFallback: PageLoader,
    errorElement: <RouteError />,
    children: [
      { path: '/', lazy: async () => ({ Component: (await import('./routes/home')).HomeRoute }) },
      { path: '/shop', lazy: async () => ({ Component: (await import('./routes/shop')).ShopRoute }) },
      { path: '/shirt/:shirtId', lazy: async () => ({ Component: (await import('./routes/shirt')).ShirtRoute }) },
      { path: '/signin', lazy: async () => ({ Component: (await import('./routes/sign-in')).SignInRoute }) },
      {
        lazy: async () => ({ Component: (await import('./routes/protected-route')).ProtectedRoute }),
        children: [
          {
            path: '/dashboard',
            lazy: async () => ({ Component: (await import('./routes/dashboard')).DashboardRoute }),
          },
          {
            path: '/charity/:charityId/payouts',
            lazy: async () => ({ Component: (await import('./routes/charity-payouts')).CharityPayoutsRoute }),
          },
          ...adminRoutes,
        ],
      },
      {
        path: '/verify-email',
        lazy: async () => ({ Component: (await import('./routes/verify-email')).VerifyEmailRoute }),
      },
      {
        path: '/waitlist/confirm',
        lazy: async () => ({ Component: (await import('./routes/waitlist-confirm')).WaitlistConfirmRoute }),
      },
      {
        path: '/waitlist/remove',
        lazy: async () => ({ Component: (await import('./routes/waitlist-remove')).WaitlistRemoveRoute }),
      },
      { path: '/claim', lazy: async () => ({ Component: (await import('./routes/claim')).ClaimRoute }) },
      {
        path: '/unsubscribe',
        lazy: async () => ({ Component: (await import('./routes/unsubscribe')).UnsubscribeRoute }),
      },
      { path: '/privacy', lazy: async () => ({ Component: (await import('./routes/privacy')).PrivacyRoute }) },
      {
        path: '/fundraiser/:fundraiserId',
        lazy: async () => ({ Component: (await import('./routes/qr-landing')).QrLandingRoute }),
      },
      { path: '/qr/:shirtId', lazy: async () => ({ Component: (await import('./routes/qr-landing')).QrLandingRoute }) },
      { path: '/q/:code', lazy: async () => ({ Component: (await import('./routes/short-link')).ShortLinkRoute }) },
      { path: '*', lazy: async () => ({ Component: (await import('./routes/not-found')).NotFoundRoute }) },
    ],
  },
];

export function createRouter() {
  return createBrowserRouter(routes);
}
