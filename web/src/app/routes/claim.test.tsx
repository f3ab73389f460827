import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { readPendingClaim } from '@/features/claims/api/pending-claim';
import { fakeApi } from '@/testing/fake-api';
import { renderRoute } from '@/testing/render';
import { signInAs } from '@/testing/session';
import { ClaimRoute } from './claim';
import { SignInRoute } from './sign-in';

const TOKEN = 'e-1.the-secret';
const LINK = `#token=${TOKEN}&email=${encodeURIComponent('wren+shirts@example.com')}`;

const me = (emailVerified: boolean) => ({ uid: 'u-1', anonymous: false, admin: false, emailVerified });
const claimed = { id: 'f-1', userId: 'u-1', charityId: 'water', shirtId: 'scan-me', name: 'Scan Me Maybe' };

function renderClaim(hash = LINK) {
  return renderRoute(<ClaimRoute />, {
    path: '/claim',
    at: { pathname: '/claim', hash },
    routes: [
      { path: '/signin', element: <SignInRoute /> },
      { path: '/dashboard', element: <p>Dashboard page</p> },
    ],
  });
}

describe('the claim page', () => {
  it('sends a visitor to sign in or up with the address the link was mailed to, filled in', async () => {
    const server = fakeApi({});
    const { user, router } = renderClaim();
    expect(
      await screen.findByText(
        'Your shirt is ready. Sign in, or create an account, with wren+shirts@example.com to claim it.',
      ),
    ).toBeTruthy();
    // The token leaves the address bar, and waits in this browser for the way back.
    await waitFor(() => expect(router.state.location.hash).toBe(''));
    expect(readPendingClaim()).toEqual({ token: TOKEN, email: 'wren+shirts@example.com' });

    await user.click(screen.getByRole('button', { name: 'Sign in or sign up' }));
    expect((await screen.findByLabelText<HTMLInputElement>('Email')).value).toBe('wren+shirts@example.com');
    await user.click(screen.getByRole('tab', { name: 'Sign Up' }));
    expect(screen.getByLabelText<HTMLInputElement>('Email').value).toBe('wren+shirts@example.com');
    expect(router.state.location.state).toMatchObject({ from: '/claim' });
    expect(server.to('POST', '/api/claims')).toEqual([]);
  });

  it('asks a signed-in person with an unverified address to verify it first, and claims nothing yet', async () => {
    let verified = false;
    const server = fakeApi({
      'GET /api/me': () => ({ json: me(verified) }),
      'POST /api/claims': { status: 201, json: claimed },
    });
    signInAs({ uid: 'u-1', email: 'wren+shirts@example.com' });
    const { user, router } = renderClaim();
    expect(
      await screen.findByText(
        'Please verify your email address first: we mailed a link to wren+shirts@example.com. Open it, then come back to this page.',
      ),
    ).toBeTruthy();
    expect(server.to('POST', '/api/claims')).toEqual([]);

    // Verified in another tab: the page asks again and claims.
    verified = true;
    await user.click(screen.getByRole('button', { name: 'I have verified it' }));
    expect(await screen.findByText('Dashboard page')).toBeTruthy();
    expect(server.to('POST', '/api/claims').map((request) => request.body)).toEqual([{ token: TOKEN }]);
    expect(router.state.location.pathname).toBe('/dashboard');
  });

  it('claims the shirt for a verified person and takes them to their dashboard, forgetting the link', async () => {
    const server = fakeApi({
      'GET /api/me': { json: me(true) },
      'POST /api/claims': { status: 201, json: claimed },
    });
    signInAs({ uid: 'u-1', email: 'wren+shirts@example.com' });
    const { router } = renderClaim();
    expect(await screen.findByText('Dashboard page')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/dashboard');
    const [request] = server.to('POST', '/api/claims');
    expect(request!.body).toEqual({ token: TOKEN });
    expect(request!.headers.authorization).toBe('Bearer token-u-1');
    expect(server.to('POST', '/api/claims')).toHaveLength(1);
    expect(readPendingClaim()).toBeNull();
  });

  it('claims with the link kept in this browser when it comes back without one, after signing up', async () => {
    const server = fakeApi({
      'GET /api/me': { json: me(true) },
      'POST /api/claims': { status: 201, json: claimed },
    });
    localStorage.setItem('qrshirt_pending_claim', JSON.stringify({ token: TOKEN, email: null }));
    signInAs({ uid: 'u-1' });
    renderClaim('');
    expect(await screen.findByText('Dashboard page')).toBeTruthy();
    expect(server.to('POST', '/api/claims').map((request) => request.body)).toEqual([{ token: TOKEN }]);
  });

  it.each([
    [403, 'This claim link was mailed to another address: sign in with the account of that address'],
    [409, 'This claim link has been used already'],
    [410, 'This claim link has expired (links work for 30 days): ask us for a new one'],
  ])("shows the server's reason when the claim is refused with %i", async (status, error) => {
    fakeApi({ 'GET /api/me': { json: me(true) }, 'POST /api/claims': { status, json: { error } } });
    signInAs({ uid: 'u-1', email: 'someone@example.com' });
    const { router } = renderClaim();
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('We could not give you this shirt');
    expect(alert.textContent).toContain(error);
    expect(router.state.location.pathname).toBe('/claim');
    expect(screen.getByRole('button', { name: 'Go to my dashboard' })).toBeTruthy();
  });

  it('explains what to do when opened without a link', async () => {
    const server = fakeApi({});
    renderClaim('');
    expect(
      await screen.findByText('This page needs the link from your email. Open the link exactly as it came.'),
    ).toBeTruthy();
    expect(server.requests).toEqual([]);
  });
});
