import { authSession, type AuthSession } from '@qrshirt/contracts';
import { requestJson } from '@/lib/http';

/*
 * The three auth endpoints the session lifecycle itself needs. The user-facing ones (sign in,
 * sign up, Google, password reset, profile) live in the auth feature.
 */

/** POST /api/auth/anonymous: a session for public reads, treated by the UI as signed out. */
export function createAnonymousSession(): Promise<AuthSession> {
  return requestJson('/api/auth/anonymous', { method: 'POST', schema: authSession });
}

/** POST /api/auth/refresh: trades the single-use refresh token for a new session. */
export function refreshSession(refreshToken: string): Promise<AuthSession> {
  return requestJson('/api/auth/refresh', { method: 'POST', body: { refreshToken }, schema: authSession });
}

/** POST /api/auth/signout: revokes the refresh token (204). */
export function revokeSession(refreshToken: string): Promise<void> {
  return requestJson('/api/auth/signout', { method: 'POST', body: { refreshToken } });
}
