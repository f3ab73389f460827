import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeApi } from '@/testing/fake-api';
import { sessionFor } from '@/testing/session';
import { sessionForRequest, signOut, startSession } from './auth-lifecycle';
import { getAuthState, SESSION_HINT_KEY } from './session-store';

/** Every string the page's storage holds: no script of the page may find a refresh token there. */
const storedText = () => Object.entries(localStorage).flat().join('\n');

describe('the session', () => {
  it("resumes the cookie's session after a reload, and keeps no token where scripts can read it", async () => {
    // A page load of its own (fresh modules: a worker runs many files), as initAuth runs once per load.
    vi.resetModules();
    const reloaded = { ...(await import('./auth-lifecycle')), ...(await import('./session-store')) };
    localStorage.setItem(SESSION_HINT_KEY, '1');
    const server = fakeApi({ 'POST /api/auth/refresh': { json: sessionFor({ uid: 'u-1', displayName: 'Ada' }) } });
    await reloaded.initAuth();
    const [refresh] = server.to('POST', '/api/auth/refresh');
    expect(refresh).toMatchObject({ body: undefined, credentials: 'include' });
    expect(reloaded.getAuthState()).toMatchObject({
      status: 'ready',
      session: { user: { uid: 'u-1', anonymous: false } },
    });
    expect(storedText()).not.toContain('token-u-1');
    expect(localStorage.getItem(SESSION_HINT_KEY)).toBe('1');
  });

  it('refreshes the access token before it expires', async () => {
    const server = fakeApi({ 'POST /api/auth/refresh': { json: sessionFor({ uid: 'u-1' }) } });
    startSession(sessionFor({ uid: 'u-1' }, 10));
    const session = await sessionForRequest();
    expect(server.to('POST', '/api/auth/refresh')).toHaveLength(1);
    expect(session?.expiresAt).toBeGreaterThan(Date.now() + 3_000_000);
  });

  it('goes on anonymously when the cookie is refused', async () => {
    fakeApi({
      'POST /api/auth/refresh': { status: 401, json: { error: 'Your session has ended. Please sign in again.' } },
      'POST /api/auth/anonymous': { json: sessionFor({ uid: 'anon-2', anonymous: true }) },
    });
    startSession(sessionFor({ uid: 'u-1' }, 10));
    expect((await sessionForRequest())?.user).toMatchObject({ uid: 'anon-2', anonymous: true });
  });

  it('signs out by revoking the cookie and continuing anonymously', async () => {
    const server = fakeApi({
      'POST /api/auth/signout': { status: 204 },
      'POST /api/auth/anonymous': { json: sessionFor({ uid: 'anon-9', anonymous: true }) },
    });
    startSession(sessionFor({ uid: 'u-1' }));
    await signOut();
    expect(server.to('POST', '/api/auth/signout')[0]).toMatchObject({ body: undefined, credentials: 'include' });
    expect(getAuthState().session?.user).toMatchObject({ uid: 'anon-9', anonymous: true });
  });

  it('stops waiting for the session after 1 s', async () => {
    // A page load of its own: an earlier test's refresh timer or request, done late on a busy
    // machine, would otherwise make the shared modules' session ready within the second.
    vi.resetModules();
    const reloaded = await import('./auth-lifecycle');
    vi.useFakeTimers();
    let ready = false;
    void reloaded.authReady().then(() => {
      ready = true;
    });
    await vi.advanceTimersByTimeAsync(999);
    expect(ready).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(ready).toBe(true);
  });
});

describe('the session with anonymous authentication off (the page says so)', () => {
  beforeEach(() => {
    document.head.insertAdjacentHTML('beforeend', '<meta name="qrshirt-anonymous-auth" content="false">');
  });
  afterEach(() => {
    document.querySelector('meta[name="qrshirt-anonymous-auth"]')?.remove();
  });

  it('signs out to no session at all, asking for no anonymous one', async () => {
    const server = fakeApi({ 'POST /api/auth/signout': { status: 204 } });
    startSession(sessionFor({ uid: 'u-1' }));
    await signOut();
    expect(server.to('POST', '/api/auth/anonymous')).toHaveLength(0);
    expect(getAuthState()).toMatchObject({ status: 'ready', session: null, anonymousFailed: false });
  });

  it('drops an anonymous session that a cookie from before the switch still renews', async () => {
    const server = fakeApi({ 'POST /api/auth/refresh': { json: sessionFor({ uid: 'anon-3', anonymous: true }) } });
    startSession(sessionFor({ uid: 'u-1' }, 10));
    expect(await sessionForRequest()).toBeNull();
    expect(server.to('POST', '/api/auth/anonymous')).toHaveLength(0);
    expect(getAuthState()).toMatchObject({ status: 'ready', session: null, anonymousFailed: false });
  });
});
