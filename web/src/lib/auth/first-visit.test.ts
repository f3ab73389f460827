import { expect, it, vi } from 'vitest';
import { fakeApi } from '@/testing/fake-api';
import { sessionFor } from '@/testing/session';

/*
 * A page load of its own (fresh modules: a worker runs many files), as the session is set up once
 * per load: a visitor this browser never gave a session cookie, or one whose client kept the
 * refresh token in storage.
 */
it("starts a first visitor's anonymous session without asking for a refresh, and drops an old client's token", async () => {
  vi.resetModules();
  const { initAuth } = await import('./auth-lifecycle');
  const { getAuthState, LEGACY_REFRESH_TOKEN_KEY, SESSION_HINT_KEY } = await import('./session-store');
  localStorage.setItem(LEGACY_REFRESH_TOKEN_KEY, 'family.secret');
  const server = fakeApi({ 'POST /api/auth/anonymous': { json: sessionFor({ uid: 'anon-1', anonymous: true }) } });
  await initAuth();
  expect(getAuthState().session?.user).toMatchObject({ uid: 'anon-1', anonymous: true });
  expect(server.to('POST', '/api/auth/refresh')).toEqual([]);
  expect(server.to('POST', '/api/auth/anonymous')[0]).toMatchObject({ credentials: 'include' });
  expect(localStorage.getItem(LEGACY_REFRESH_TOKEN_KEY)).toBeNull();
  expect(localStorage.getItem(SESSION_HINT_KEY)).toBe('1');
});
