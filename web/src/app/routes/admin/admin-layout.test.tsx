import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ProtectedRoute } from '@/app/routes/protected-route';
import { PageLoader } from '@/components/page-loader';
import { fakeApi } from '@/testing/fake-api';
import { renderRoutes } from '@/testing/render';
import { signInAs } from '@/testing/session';
import { adminRoutes } from './admin-routes';

const overview = {
  totals: {
    scans: 12,
    scanRequests: 15,
    donations: 3,
    amountRaised: 45.5,
    testDonations: 0,
    testAmountRaised: 0,
    fundraisers: 2,
    users: 5,
  },
  daily: [],
  topFundraisers: [
    { id: 'f-1', name: 'Water run', userId: 'u-1', charityId: 'c-1', scans: 12, donations: 3, amountRaised: 45.5 },
  ],
  topCharities: [{ id: 'c-1', name: 'Ocean Friends', fundraisers: 2, amountRaised: 45.5 }],
};

function renderAdmin(at: string) {
  return renderRoutes(
    [
      {
        HydrateFallback: PageLoader,
        children: [
          { path: '/signin', element: <p>Sign-in page</p> },
          { element: <ProtectedRoute />, children: adminRoutes },
        ],
      },
    ],
    at,
  );
}

describe('the admin area', () => {
  it('shows an admin the side navigation and the overview figures', async () => {
    fakeApi({
      'GET /api/me': { json: { uid: 'boss', anonymous: false, admin: true, emailVerified: true } },
      'GET /api/admin/overview': { json: overview },
    });
    signInAs({ uid: 'boss' });
    renderAdmin('/admin');

    // The first visit loads the pages' code.
    const sections = await screen.findByRole('navigation', { name: 'Admin sections' });
    expect(
      within(sections)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual([
      'Overview',
      'Funnel',
      'Charities',
      'Shirts',
      'Waitlist',
      'Projections',
      'Event browser',
      'Replay export',
      'Reconcile',
      'Outbox',
      'Audit trail',
      'Fundraiser figures',
    ]);
    expect(within(sections).getByRole('link', { name: 'Projections' }).getAttribute('href')).toBe('/admin/projections');
    expect((await screen.findByTestId('total-amount-raised')).textContent).toBe('$45.50');
    expect(screen.getByTestId('total-scans').textContent).toBe('12');
    expect(screen.getByTestId('total-scan-requests').textContent).toBe('15');
    expect(screen.getByText('Water run')).toBeTruthy();
  });

  it('tells a signed-in user who is not an admin that it is not for them, and shows nothing of it', async () => {
    const server = fakeApi({
      'GET /api/me': { json: { uid: 'member', anonymous: false, admin: false, emailVerified: true } },
    });
    signInAs({ uid: 'member' });
    renderAdmin('/admin/waitlist');

    expect(await screen.findByRole('heading', { name: 'Not allowed' })).toBeTruthy();
    expect(screen.queryByRole('navigation', { name: 'Admin sections' })).toBeNull();
    expect(server.requests.map((request) => request.path)).toEqual(['/api/me']);
  });

  it('sends a signed-out visitor to sign in', async () => {
    fakeApi({});
    const { router } = renderAdmin('/admin');
    await waitFor(() => expect(router.state.location.pathname).toBe('/signin'));
    expect(router.state.location.state).toEqual({ from: '/admin' });
  });
});
