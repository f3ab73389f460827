import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AppLayout } from '@/components/layout/app-layout';
import { fakeApi } from '@/testing/fake-api';
import { renderRoute } from '@/testing/render';
import { signInAs } from '@/testing/session';
import { useAdminAccess } from '../api/get-me';
import { AdminNavLink } from './admin-nav-link';

function renderNavigationBar(beside?: React.ReactNode) {
  return renderRoute(
    <>
      <AppLayout extraLinks={AdminNavLink} />
      {beside}
    </>,
  );
}

/** What the server answered about `uid`, once it has: the Admin link renders from the same answer. */
function AdminAccess({ uid }: { uid: string }) {
  const access = useAdminAccess(uid);
  return access === 'checking' ? null : <output>access: {access}</output>;
}

describe('the Admin link in the navigation bar', () => {
  it('appears for a user the server calls an admin', async () => {
    fakeApi({ 'GET /api/me': { json: { uid: 'boss', anonymous: false, admin: true, emailVerified: true } } });
    signInAs({ uid: 'boss', displayName: 'Olga' });
    renderNavigationBar();
    const links = await screen.findAllByRole('link', { name: 'Admin' });
    expect(links[0]!.getAttribute('href')).toBe('/admin');
  });

  it('never appears for anyone else', async () => {
    const server = fakeApi({
      'GET /api/me': { json: { uid: 'member', anonymous: false, admin: false, emailVerified: true } },
    });
    signInAs({ uid: 'member', displayName: 'Mia' });
    renderNavigationBar(<AdminAccess uid="member" />);
    await screen.findAllByText('Hi, Mia!');
    await screen.findByText('access: not-admin');
    expect(server.to('GET', '/api/me').length).toBeGreaterThan(0);
    expect(screen.queryByRole('link', { name: 'Admin' })).toBeNull();
  });

  it('is not asked about for a visitor who is not signed in', () => {
    const server = fakeApi({});
    signInAs({ uid: 'anon-1', anonymous: true });
    renderNavigationBar();
    expect(screen.queryByRole('link', { name: 'Admin' })).toBeNull();
    expect(server.to('GET', '/api/me')).toEqual([]);
  });
});
