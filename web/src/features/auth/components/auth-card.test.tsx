import { authErrorMessages } from '@qrshirt/contracts';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { getAuthState } from '@/lib/auth/session-store';
import { type FakeAnswer, fakeApi } from '@/testing/fake-api';
import { renderRoute } from '@/testing/render';
import { AuthCard, type GoogleReturn } from './auth-card';
import { TEST_PROOF_OF_WORK } from '@/testing/proof-of-work';

const session = (displayName: string, email: string) => ({
  accessToken: 'access-1',
  expiresIn: 3600,
  user: { uid: 'u-1', anonymous: false, displayName, email, photoURL: null },
});

function renderSignIn({ googleReturn = null, from }: { googleReturn?: GoogleReturn | null; from?: string } = {}) {
  return renderRoute(<AuthCard googleReturn={googleReturn} onGoogleReturnHandled={() => {}} />, {
    path: '/signin',
    at: { pathname: '/signin', state: from ? { from } : null },
    routes: [
      { path: '/dashboard', element: <p>Dashboard page</p> },
      { path: '/shirt/:id', element: <p>Shirt page</p> },
    ],
  });
}

function alertText() {
  return screen.getByRole('alert').textContent;
}

describe('signing in', () => {
  it('needs both the email and the password', async () => {
    const api = fakeApi({});
    const { user } = renderSignIn();
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(alertText()).toBe('Please fill in all fields');
    expect(api.to('POST', '/api/auth/signin')).toHaveLength(0);
  });

  it.each(Object.entries(authErrorMessages))('shows the message for %s', async (code, message) => {
    fakeApi({ 'POST /api/auth/signin': { status: 401, json: { error: 'refused', code } } });
    const { user } = renderSignIn();
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'secret1');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    await waitFor(() => expect(alertText()).toBe(message));
  });

  it('shows the generic message for a code it does not know', async () => {
    fakeApi({ 'POST /api/auth/signin': { status: 400, json: { error: 'odd', code: 'quantum-flux' } } });
    const { user } = renderSignIn();
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'secret1');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    await waitFor(() => expect(alertText()).toBe('An unexpected error occurred. Please try again.'));
  });

  it('says the network failed when the server cannot be reached', async () => {
    fakeApi({ 'POST /api/auth/signin': () => Promise.reject(new TypeError('Failed to fetch')) });
    const { user } = renderSignIn();
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'secret1');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    await waitFor(() => expect(alertText()).toBe('Network error. Please check your connection and try again.'));
  });

  it('signs in, syncs the user, and 1.5 s later replaces the page with the one that sent the user here', async () => {
    let signedInAt = 0;
    const api = fakeApi({
      'POST /api/auth/signin': () => {
        signedInAt = Date.now();
        return { json: session('Ada', 'ada@example.com') };
      },
      'POST /api/user': { json: { uid: 'u-1', displayName: 'Ada', email: 'ada@example.com', photoURL: null } },
    });
    const { user, router } = renderSignIn({ from: '/shirt/scan-me-maybe' });
    let redirectedAt = 0;
    router.subscribe((state) => {
      if (state.location.pathname === '/shirt/scan-me-maybe') redirectedAt ||= Date.now();
    });
    await user.type(screen.getByLabelText('Email'), ' ada@example.com ');
    await user.type(screen.getByLabelText('Password'), 'secret1');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));

    expect(await screen.findByText('Successfully signed in!')).toBeTruthy();
    expect(api.to('POST', '/api/auth/signin')[0]!.body).toEqual({ email: 'ada@example.com', password: 'secret1' });
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Sign In' }).disabled).toBe(true);
    expect(getAuthState().session?.user.uid).toBe('u-1');
    await waitFor(() => expect(api.to('POST', '/api/user')).toHaveLength(1));
    expect(api.to('POST', '/api/user')[0]!.headers).toMatchObject({
      authorization: 'Bearer access-1',
      'x-user-id': 'u-1',
    });

    expect(await screen.findByText('Shirt page')).toBeTruthy();
    // Counted from the server's answer, which comes before the timer starts: a busy machine can
    // only make it longer.
    expect(redirectedAt - signedInAt).toBeGreaterThanOrEqual(1000);
    expect(router.state.historyAction).toBe('REPLACE');
  });

  it('syncs the address the server gave the session, and only logs a refused sync, without a toast', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const api = fakeApi({
      'POST /api/auth/signin': { json: session('Ada', 'Ada@Example.com') },
      'POST /api/user': {
        status: 409,
        json: { error: 'Your email address changes only by the link we mail to the new address' },
      },
    });
    const { user } = renderSignIn();
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'secret1');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('Successfully signed in!')).toBeTruthy();
    await waitFor(() => expect(warn).toHaveBeenCalledWith('Syncing the signed-in user failed', expect.anything()));
    expect(api.to('POST', '/api/user')[0]!.body).toMatchObject({ uid: 'u-1', email: 'Ada@Example.com' });
    expect(screen.queryByText(/changes only by the link/)).toBeNull();
    warn.mockRestore();
  });

  it('goes to the dashboard when nothing sent the user here', async () => {
    fakeApi({ 'POST /api/auth/signin': { json: session('Ada', 'ada@example.com') } });
    const { user } = renderSignIn();
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'secret1');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('Dashboard page')).toBeTruthy();
  });

  it('shows and hides the password', async () => {
    fakeApi({});
    const { user } = renderSignIn();
    const password = screen.getByLabelText<HTMLInputElement>('Password');
    expect(password.type).toBe('password');
    await user.click(screen.getByRole('button', { name: 'Toggle password visibility' }));
    expect(password.type).toBe('text');
    await user.click(screen.getByRole('button', { name: 'Toggle password visibility' }));
    expect(password.type).toBe('password');
  });
});

describe('signing up', () => {
  async function fillSignUp(user: ReturnType<typeof renderSignIn>['user'], values: Record<string, string>) {
    await user.click(screen.getByRole('tab', { name: 'Sign Up' }));
    for (const [label, value] of Object.entries(values)) await user.type(screen.getByLabelText(label), value);
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
  }

  it('needs all four fields before anything else', async () => {
    fakeApi({});
    const { user } = renderSignIn();
    await fillSignUp(user, { Email: 'ada@example.com', Password: 'abc', 'Confirm Password': 'xyz' });
    expect(alertText()).toBe('Please fill in all fields');
  });

  it('then matching passwords', async () => {
    fakeApi({});
    const { user } = renderSignIn();
    await fillSignUp(user, {
      'Display Name': 'Ada',
      Email: 'ada@example.com',
      Password: 'abc',
      'Confirm Password': 'xyz',
    });
    expect(alertText()).toBe('Passwords do not match');
  });

  it('then at least 6 characters', async () => {
    const api = fakeApi({});
    const { user } = renderSignIn();
    await fillSignUp(user, {
      'Display Name': 'Ada',
      Email: 'ada@example.com',
      Password: 'abcde',
      'Confirm Password': 'abcde',
    });
    expect(alertText()).toBe('Password should be at least 6 characters');
    expect(api.to('POST', '/api/auth/signup')).toHaveLength(0);
  });

  it('maps a taken email to its message', async () => {
    fakeApi({ 'POST /api/auth/signup': { status: 409, json: { error: 'taken', code: 'email-already-in-use' } } });
    const { user } = renderSignIn();
    await fillSignUp(user, {
      'Display Name': 'Ada',
      Email: 'ada@example.com',
      Password: 'secret1',
      'Confirm Password': 'secret1',
    });
    await waitFor(() =>
      expect(alertText()).toBe('An account with this email already exists. Please try signing in instead.'),
    );
  });

  it('creates the account with the trimmed name and email', async () => {
    const api = fakeApi({ 'POST /api/auth/signup': { status: 201, json: session('Ada', 'ada@example.com') } });
    const { user } = renderSignIn();
    await fillSignUp(user, {
      'Display Name': ' Ada ',
      Email: 'ada@example.com ',
      Password: 'secret1',
      'Confirm Password': 'secret1',
    });
    expect(await screen.findByText('Account created successfully!')).toBeTruthy();
    expect(api.to('POST', '/api/auth/signup')[0]!.headers['x-altcha']).toBe(TEST_PROOF_OF_WORK);
    expect(api.to('POST', '/api/auth/signup')[0]!.body).toEqual({
      displayName: 'Ada',
      email: 'ada@example.com',
      password: 'secret1',
    });
  });

  it('gives each password its own show/hide toggle', async () => {
    fakeApi({});
    const { user } = renderSignIn();
    await user.click(screen.getByRole('tab', { name: 'Sign Up' }));
    const toggles = screen.getAllByRole('button', { name: 'Toggle password visibility' });
    expect(toggles).toHaveLength(2);
    await user.click(toggles[1]!);
    expect(screen.getByLabelText<HTMLInputElement>('Password').type).toBe('password');
    expect(screen.getByLabelText<HTMLInputElement>('Confirm Password').type).toBe('text');
  });
});

describe('switching tabs', () => {
  it('clears every field and message', async () => {
    fakeApi({});
    const { user } = renderSignIn();
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(alertText()).toBe('Please fill in all fields');

    await user.click(screen.getByRole('tab', { name: 'Sign Up' }));
    expect(screen.queryByRole('alert')).toBeNull();
    await user.type(screen.getByLabelText('Display Name'), 'Ada');
    await user.click(screen.getByRole('tab', { name: 'Sign In' }));
    expect(screen.getByLabelText<HTMLInputElement>('Email').value).toBe('');
    await user.click(screen.getByRole('tab', { name: 'Sign Up' }));
    expect(screen.getByLabelText<HTMLInputElement>('Display Name').value).toBe('');
  });
});

describe('Google', () => {
  it('shows the server saying it is not configured', async () => {
    fakeApi({ 'GET /api/auth/google': { status: 503, json: { error: 'Google sign-in is not configured' } } });
    const { user } = renderSignIn();
    await user.click(screen.getByRole('button', { name: 'Continue with Google' }));
    await waitFor(() => expect(alertText()).toBe('Google sign-in is not configured'));
  });

  it('finishes the round trip by exchanging the code', async () => {
    const exchanged: FakeAnswer = { json: session('Grace', 'grace@example.com') };
    const api = fakeApi({ 'POST /api/auth/exchange': exchanged });
    renderSignIn({ googleReturn: { code: 'one-time' } });
    expect(await screen.findByText('Successfully signed in with Google!')).toBeTruthy();
    expect(api.to('POST', '/api/auth/exchange')[0]!.body).toEqual({ code: 'one-time' });
    expect(await screen.findByText('Dashboard page')).toBeTruthy();
  });

  it('shows the message for the error code it came back with', async () => {
    fakeApi({});
    renderSignIn({ googleReturn: { error: 'popup-closed-by-user' } });
    await waitFor(() => expect(alertText()).toBe('Sign-in was cancelled. Please try again.'));
  });
});
