import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ProtectedRoute } from '@/app/routes/protected-route';
import { getAuthState } from '@/lib/auth/session-store';
import { fakeApi } from '@/testing/fake-api';
import { renderRoute, renderRoutes } from '@/testing/render';
import { sessionFor, signInAs } from '@/testing/session';
import { AppLayout } from './app-layout';

function renderApp(at: string) {
  return renderRoute(<AppLayout />, { path: '/', at });
}

function renderWithChildren(at: string) {
  return renderRoutes(
    [
      {
        element: <AppLayout />,
        children: [
          { path: '/', element: <p>Home page</p> },
          { path: '/signin', element: <p>Sign-in page</p> },
          { element: <ProtectedRoute />, children: [{ path: '/dashboard', element: <p>Private dashboard</p> }] },
        ],
      },
    ],
    at,
  );
}

describe('the navigation bar', () => {
  it('offers Sign In to a visitor, anonymous sessions included', () => {
    fakeApi({});
    signInAs({ uid: 'anon-1', anonymous: true });
    renderApp('/');
    expect(screen.getAllByRole('link', { name: 'Sign In' }).length).toBeGreaterThan(0);
    expect(screen.queryByRole('button', { name: 'Sign Out' })).toBeNull();
  });

  it('greets a signed-in user by name, else by email, with Dashboard and Sign Out', () => {
    fakeApi({});
    signInAs({ uid: 'u-1', email: 'ada@example.com' });
    renderApp('/');
    expect(screen.getAllByText('Hi, ada@example.com!').length).toBeGreaterThan(0);
    expect(screen.getAllByRole('link', { name: 'Dashboard' })[0]!.getAttribute('href')).toBe('/dashboard');
    expect(screen.getAllByRole('button', { name: 'Sign Out' }).length).toBeGreaterThan(0);
  });

  it('signs out and goes home', async () => {
    fakeApi({
      'POST /api/auth/signout': { status: 204 },
      'POST /api/auth/anonymous': { json: sessionFor({ uid: 'anon-2', anonymous: true }) },
    });
    signInAs({ uid: 'u-1', displayName: 'Ada' });
    const { user, router } = renderWithChildren('/dashboard');
    expect(await screen.findByText('Private dashboard')).toBeTruthy();
    await user.click(screen.getAllByRole('button', { name: 'Sign Out' })[0]!);
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(getAuthState().session?.user.anonymous).toBe(true);
    expect(screen.getAllByRole('link', { name: 'Sign In' }).length).toBeGreaterThan(0);
  });

  it('folds into a menu that opens and closes with the burger', async () => {
    fakeApi({});
    const { user } = renderApp('/');
    const menu = screen.getByRole('navigation', { name: 'Mobile menu' });
    expect(within(menu).queryByRole('link', { name: 'Shop' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Open menu' }));
    expect(within(menu).getByRole('link', { name: 'Shop' })).toBeTruthy();
    expect(within(menu).getByRole('link', { name: 'Sign In' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Close menu' }));
    expect(within(menu).queryByRole('link', { name: 'Shop' })).toBeNull();
  });

  it('has the footer links and the 2025 copyright', () => {
    fakeApi({});
    renderApp('/');
    for (const name of ['Get Your Shirt', 'Dashboard', 'Privacy Policy', 'Contact Us', 'Follow us on Instagram']) {
      expect(screen.getByRole('link', { name })).toBeTruthy();
    }
    expect(screen.getByText('© 2025 QR Shirts for Charity. All rights reserved.')).toBeTruthy();
  });
});

describe('the protected route', () => {
  it('sends a signed-out visitor to sign in, remembering where they were going', async () => {
    fakeApi({});
    const { router } = renderWithChildren('/dashboard?tab=shirts');
    expect(await screen.findByText('Sign-in page')).toBeTruthy();
    expect(router.state.location.state).toEqual({ from: '/dashboard?tab=shirts' });
  });

  it('lets a signed-in user through', async () => {
    fakeApi({});
    signInAs({ uid: 'u-1', displayName: 'Ada' });
    renderWithChildren('/dashboard');
    expect(await screen.findByText('Private dashboard')).toBeTruthy();
  });
});

describe('the cache status panel', () => {
  it('appears and disappears with Ctrl+Shift+C', () => {
    fakeApi({});
    renderApp('/');
    expect(screen.queryByTestId('cache-panel')).toBeNull();
    fireEvent.keyDown(window, { key: 'C', ctrlKey: true, shiftKey: true });
    expect(screen.getByTestId('cache-panel')).toBeTruthy();
    fireEvent.keyDown(window, { key: 'C', ctrlKey: true, shiftKey: true });
    expect(screen.queryByTestId('cache-panel')).toBeNull();
  });
});
