import { describe, expect, it } from 'vitest';
import { fakeApi } from '@/testing/fake-api';
import { sessionFor } from '@/testing/session';
import { authReady, initAuth, sessionForRequest, signOut, startSession } from './auth-lifecycle';
import { getAuthState, REFRESH_TOKEN_KEY, resetAuthState } from './session-store';

describe('the session', () => {
  it('resumes a stored session after a reload by trading its refresh token', async () => {
    resetAuthState();
    localStorage.setItem(REFRESH_TOKEN_KEY, 'stored-refresh');
    const server = fakeApi({ 'POST /api/auth/refresh': { json: sessionFor({ uid: 'u-1', displayName: 'Ada' }) } });
    await initAuth();
    expect(server.to('POST', '/api/auth/refresh')[0]!.body).toEqual({ refreshToken: 'stored-refresh' });
    expect(getAuthState()).toMatchObject({ status: 'ready', session: { user: { uid: 'u-1', anonymous: false } } });
    expect(localStorage.getItem(REFRESH_TOKEN_KEY)).toBe('refresh-u-1');
  });

  it('refreshes the access token before it expires', async () => {
    const server = fakeApi({ 'POST /api/auth/refresh': { json: sessionFor({ uid: 'u-1' }) } });
    startSession(sessionFor({ uid: 'u-1' }, 10));
    const session = await sessionForRequest();
    expect(server.to('POST', '/api/auth/refresh')).toHaveLength(1);
    expect(session?.expiresAt).toBeGreaterThan(Date.now() + 3_000_000);
  });

  it('signs out by revoking the refresh token and continuing anonymously', async () => {
    const server = fakeApi({
      'POST /api/auth/signout': { status: 204 },
      'POST /api/auth/anonymous': { json: sessionFor({ uid: 'anon-9', anonymous: true }) },
    });
    startSession(sessionFor({ uid: 'u-1' }));
    await signOut();
    expect(server.to('POST', '/api/auth/signout')[0]!.body).toEqual({ refreshToken: 'refresh-u-1' });
    expect(getAuthState().session?.user).toMatchObject({ uid: 'anon-9', anonymous: true });
  });

  it('stops waiting for the session after 1 s', async () => {
    resetAuthState();
    const started = Date.now();
    await authReady();
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(Date.now() - started).toBeLessThan(1500);
  });
});
