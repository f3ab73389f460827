import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { VerifyEmailBanner } from '@/features/auth/components/verify-email-banner';
import { useMe } from '@/lib/auth/me';
import { getAuthState } from '@/lib/auth/session-store';
import { deferred, fakeApi } from '@/testing/fake-api';
import { renderRoute } from '@/testing/render';
import { signInAs } from '@/testing/session';
import { VerifyEmailRoute } from './verify-email';

function renderAt(hash: string) {
  return renderRoute(<VerifyEmailRoute />, {
    path: '/verify-email',
    at: { pathname: '/verify-email', hash },
    routes: [{ path: '/dashboard', element: <p>Dashboard page</p> }],
  });
}

describe('the verify-email page', () => {
  it('spends the link’s token once, takes it out of the address and offers the dashboard', async () => {
    const server = fakeApi({
      'POST /api/auth/verify-email': { json: { email: 'ada@example.com', emailVerified: true } },
    });
    const { router } = renderAt('#token=the-token');
    expect(await screen.findByText('Your email address is verified: ada@example.com')).toBeTruthy();
    expect(server.to('POST', '/api/auth/verify-email').map((request) => request.body)).toEqual([
      { token: 'the-token' },
    ]);
    await waitFor(() => expect(router.state.location.hash).toBe(''));
    expect(screen.getByRole('link', { name: 'Go to your dashboard' }).getAttribute('href')).toBe('/dashboard');
  });

  it('drops what `me` was answering before the link was followed: the dashboard banner goes', async () => {
    const me = (emailVerified: boolean) => ({ json: { uid: 'u-1', anonymous: false, admin: false, emailVerified } });
    // The page's first `me` (the admin link asks on every page) left before the token was spent
    // and answers after it: what it says is already out of date.
    const firstMe = deferred<ReturnType<typeof me>>();
    const verified = deferred<{ json: unknown }>();
    const server = fakeApi({
      'GET /api/me': () => (server.to('GET', '/api/me').length === 1 ? firstMe.promise : me(true)),
      'POST /api/auth/verify-email': () => verified.promise,
    });
    signInAs({ uid: 'u-1', displayName: 'Ada', email: 'ada@example.com' });
    function AsksMe({ children }: { children?: React.ReactNode }) {
      useMe('u-1');
      return children;
    }
    const { user } = renderRoute(
      <AsksMe>
        <VerifyEmailRoute />
      </AsksMe>,
      {
        path: '/verify-email',
        at: { pathname: '/verify-email', hash: '#token=the-token' },
        routes: [{ path: '/dashboard', element: <VerifyEmailBanner uid="u-1" email="ada@example.com" /> }],
      },
    );
    await waitFor(() => expect(server.to('GET', '/api/me')).toHaveLength(1));
    verified.resolve({ json: { email: 'ada@example.com', emailVerified: true } });
    await screen.findByText('Your email address is verified: ada@example.com');
    firstMe.resolve(me(false));
    await waitFor(() => expect(server.to('GET', '/api/me')).toHaveLength(2));

    await user.click(screen.getByRole('link', { name: 'Go to your dashboard' }));
    await waitFor(() => expect(server.to('GET', '/api/me')).toHaveLength(2));
    expect(screen.queryByText('Please verify your email address')).toBeNull();
  });

  it('follows a change of address’s link: sends the new address with the token and says the address changed', async () => {
    const server = fakeApi({
      'POST /api/auth/verify-email': { json: { email: 'countess@example.com', emailVerified: true, changed: true } },
    });
    const { router } = renderAt(`#token=the-token&email=${encodeURIComponent('countess@example.com')}`);
    expect(await screen.findByRole('heading', { name: 'Change your email address' })).toBeTruthy();
    expect(
      await screen.findByText('Your email address was changed to countess@example.com: sign in with it from now on.'),
    ).toBeTruthy();
    expect(server.to('POST', '/api/auth/verify-email').map((request) => request.body)).toEqual([
      { token: 'the-token', email: 'countess@example.com' },
    ]);
    await waitFor(() => expect(router.state.location.hash).toBe(''));
  });

  it('shows the signed-in browser its account’s address as the server has it after a change', async () => {
    const server = fakeApi({
      'POST /api/auth/verify-email': { json: { email: 'countess@example.com', emailVerified: true, changed: true } },
      'GET /api/user/u-1': {
        json: { uid: 'u-1', displayName: 'Ada', email: 'countess@example.com', photoURL: null, dailySummary: false },
      },
    });
    signInAs({ uid: 'u-1', displayName: 'Ada', email: 'ada@example.com' });
    renderAt(`#token=the-token&email=${encodeURIComponent('countess@example.com')}`);
    await screen.findByText(/Your email address was changed to countess@example\.com/);
    await waitFor(() => expect(getAuthState().session?.user.email).toBe('countess@example.com'));
    expect(server.to('GET', '/api/user/u-1')).toHaveLength(1);
  });

  it('shows the server’s reason for a used or expired link, and how to get a new one', async () => {
    fakeApi({
      'POST /api/auth/verify-email': {
        status: 400,
        json: { error: 'This verification link is unknown, used or expired. Ask for a new one from your dashboard.' },
      },
    });
    renderAt('#token=old');
    expect((await screen.findByRole('alert')).textContent).toBe(
      'This verification link is unknown, used or expired. Ask for a new one from your dashboard.',
    );
    expect(screen.getByRole('link', { name: 'Sign in to get a new link' }).getAttribute('href')).toBe('/signin');
  });

  it('lets a signed-in user ask for a new link from there', async () => {
    const server = fakeApi({
      'POST /api/auth/verify-email': { status: 400, json: { error: 'Used.' } },
      'POST /api/auth/verify-email/resend': { status: 202 },
    });
    signInAs({ uid: 'u-1' });
    const { user } = renderAt('#token=old');
    await user.click(await screen.findByRole('button', { name: 'Send a new link' }));
    expect(await screen.findByText('A new link is on its way')).toBeTruthy();
    expect(server.to('POST', '/api/auth/verify-email/resend')).toHaveLength(1);
  });

  it('explains what to do when opened without a link', async () => {
    const server = fakeApi({});
    renderAt('');
    expect((await screen.findByRole('alert')).textContent).toMatch(/needs the link from the email/);
    expect(server.requests).toEqual([]);
  });
});
