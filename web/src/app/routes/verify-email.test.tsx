import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { VerifyEmailBanner } from '@/features/auth/components/verify-email-banner';
import { useMe } from '@/lib/auth/me';
import { getAuthState } from '@/lib/auth/session-store';
import { deferred, fakeApi } from '@/testing/fake-api';
import { renderRoute } from '@/testing/render';
import { sessionFor, signInAs } from '@/testing/session';
import { VerifyEmailRoute } from './verify-email';

function renderAt(hash: string) {
  return renderRoute(<VerifyEmailRoute />, {
    path: '/verify-email',
    at: { pathname: '/verify-email', hash },
    routes: [{ path: '/dashboard', element: <p>Dashboard page</p> }],
  });
}

const CHANGE_LINK = `#token=the-token&email=${encodeURIComponent('countess@example.com')}`;

/** The preview's answer for the link, as its account's session (`yours`) or anyone else's. */
const preview = (yours: boolean, change = false) => ({
  json: {
    email: change ? 'countess@example.com' : 'ada@example.com',
    displayName: 'Ada',
    change,
    yours,
  },
});

describe('the verify-email page', () => {
  it('says what the link does and who asked, and spends the token only once its account confirms', async () => {
    const server = fakeApi({
      'POST /api/auth/verify-email/preview': preview(true),
      'POST /api/auth/verify-email': { json: { email: 'ada@example.com', emailVerified: true } },
    });
    signInAs({ uid: 'u-1', displayName: 'Ada', email: 'ada@example.com' });
    const { router, user } = renderAt('#token=the-token');
    expect(await screen.findByText('Account Ada asked to use ada@example.com')).toBeTruthy();
    expect(screen.getByText('Confirming verifies this address for that account.')).toBeTruthy();
    expect(server.to('POST', '/api/auth/verify-email/preview').map((request) => request.body)).toEqual([
      { token: 'the-token' },
    ]);
    expect(server.to('POST', '/api/auth/verify-email')).toEqual([]);
    await waitFor(() => expect(router.state.location.hash).toBe(''));

    await user.click(screen.getByRole('button', { name: 'Confirm my address' }));
    expect(await screen.findByText('Your email address is verified: ada@example.com')).toBeTruthy();
    const sent = server.to('POST', '/api/auth/verify-email');
    expect(sent.map((request) => request.body)).toEqual([{ token: 'the-token' }]);
    expect(sent[0]!.headers.authorization).toBe('Bearer token-u-1');
    expect(screen.getByRole('link', { name: 'Go to your dashboard' }).getAttribute('href')).toBe('/dashboard');
  });

  it('asks a signed-out visitor to sign in to the asking account, then lets that account confirm', async () => {
    const server = fakeApi({
      'POST /api/auth/verify-email/preview': (request) => preview(request.headers.authorization === 'Bearer token-u-1'),
      'POST /api/auth/signin': { json: sessionFor({ uid: 'u-1', displayName: 'Ada', email: 'ada@example.com' }) },
      'POST /api/user': {
        json: { uid: 'u-1', displayName: 'Ada', email: 'ada@example.com', photoURL: null, dailySummary: false },
      },
      'POST /api/auth/verify-email': { json: { email: 'ada@example.com', emailVerified: true } },
    });
    const { user } = renderAt('#token=the-token');
    expect(await screen.findByText('Account Ada asked to use ada@example.com')).toBeTruthy();
    expect(
      screen.getByText(
        'Sign in to that account to confirm. If that account is not yours, ignore this link: nothing changes without it.',
      ),
    ).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Confirm my address' })).toBeNull();

    const form = screen.getByRole('form', { name: 'Sign in' });
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'correct horse');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    await waitFor(() => expect(form.isConnected).toBe(false));
    await user.click(await screen.findByRole('button', { name: 'Confirm my address' }));
    expect(await screen.findByText('Your email address is verified: ada@example.com')).toBeTruthy();
    expect(server.to('POST', '/api/auth/verify-email')).toHaveLength(1);
  });

  it('tells another account’s session that the link is not its own, and offers to sign out', async () => {
    const server = fakeApi({ 'POST /api/auth/verify-email/preview': preview(false, true) });
    signInAs({ uid: 'u-2', displayName: 'Mallory', email: 'mallory@example.com' });
    renderAt(CHANGE_LINK);
    expect(await screen.findByText('Account Ada asked to use countess@example.com')).toBeTruthy();
    expect(
      screen.getByText('Confirming moves that account to this address; its old address is no longer used.'),
    ).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe(
      'You are signed in to another account (mallory@example.com). Only the account that asked can use this link: ' +
        'sign out, then sign in to it here. If that account is not yours, ignore this link: nothing changes without it.',
    );
    expect(screen.getByRole('button', { name: 'Sign out' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Use this address' })).toBeNull();
    expect(server.to('POST', '/api/auth/verify-email')).toEqual([]);
  });

  it('drops what `me` was answering before the link was followed: the dashboard banner goes', async () => {
    const me = (emailVerified: boolean) => ({ json: { uid: 'u-1', anonymous: false, admin: false, emailVerified } });
    // The page's first `me` (the admin link asks on every page) left before the token was spent
    // and answers after it: what it says is already out of date.
    const firstMe = deferred<ReturnType<typeof me>>();
    const verified = deferred<{ json: unknown }>();
    const server = fakeApi({
      'GET /api/me': () => (server.to('GET', '/api/me').length === 1 ? firstMe.promise : me(true)),
      'POST /api/auth/verify-email/preview': preview(true),
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
    await user.click(await screen.findByRole('button', { name: 'Confirm my address' }));
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
      'POST /api/auth/verify-email/preview': preview(true, true),
      'POST /api/auth/verify-email': { json: { email: 'countess@example.com', emailVerified: true, changed: true } },
      'GET /api/user/u-1': {
        json: { uid: 'u-1', displayName: 'Ada', email: 'countess@example.com', photoURL: null, dailySummary: false },
      },
    });
    signInAs({ uid: 'u-1', displayName: 'Ada', email: 'ada@example.com' });
    const { router, user } = renderAt(CHANGE_LINK);
    expect(await screen.findByRole('heading', { name: 'Change your email address' })).toBeTruthy();
    await user.click(await screen.findByRole('button', { name: 'Use this address' }));
    expect(
      await screen.findByText('Your email address was changed to countess@example.com: sign in with it from now on.'),
    ).toBeTruthy();
    for (const path of ['/api/auth/verify-email/preview', '/api/auth/verify-email']) {
      expect(server.to('POST', path).map((request) => request.body)).toEqual([
        { token: 'the-token', email: 'countess@example.com' },
      ]);
    }
    await waitFor(() => expect(router.state.location.hash).toBe(''));
    // The signed-in browser shows its account's address as the server has it now.
    await waitFor(() => expect(getAuthState().session?.user.email).toBe('countess@example.com'));
    expect(server.to('GET', '/api/user/u-1')).toHaveLength(1);
  });

  it('says why confirming failed, and how to get a new link', async () => {
    fakeApi({
      'POST /api/auth/verify-email/preview': preview(true),
      'POST /api/auth/verify-email': {
        status: 409,
        json: { error: 'This link was sent to an address your account no longer uses.' },
      },
    });
    signInAs({ uid: 'u-1' });
    const { user } = renderAt('#token=the-token');
    await user.click(await screen.findByRole('button', { name: 'Confirm my address' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'This link was sent to an address your account no longer uses.',
    );
  });

  it('shows the server’s reason for a used or expired link, and how to get a new one', async () => {
    const server = fakeApi({
      'POST /api/auth/verify-email/preview': {
        status: 400,
        json: { error: 'This verification link is unknown, used or expired. Ask for a new one from your dashboard.' },
      },
    });
    renderAt('#token=old');
    expect((await screen.findByRole('alert')).textContent).toBe(
      'This verification link is unknown, used or expired. Ask for a new one from your dashboard.',
    );
    expect(screen.getByRole('link', { name: 'Sign in to get a new link' }).getAttribute('href')).toBe('/signin');
    expect(server.to('POST', '/api/auth/verify-email')).toEqual([]);
  });

  it('lets a signed-in user ask for a new link from there', async () => {
    const server = fakeApi({
      'POST /api/auth/verify-email/preview': { status: 400, json: { error: 'Used.' } },
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
