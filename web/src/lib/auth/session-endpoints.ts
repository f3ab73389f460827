import { authSession, type AuthSession } from '@qrshirt/contracts';
import { callWithoutSession } from '@/lib/http';

/*
 * The three auth endpoints the session lifecycle itself needs. The user-facing ones (sign in, sign up,
 * Google, password reset, profile) live in the auth feature. The refresh token travels in the
 * gateway's HttpOnly cookie, which these requests carry (see callWithoutSession): never in a body.
 */

/** POST /api/auth/anonymous: a session for public reads, treated by the UI as signed out. */
export function createAnonymousSession(): Promise<AuthSession> {
  return callWithoutSession('startAnonymousSession', { schema: authSession });
}

/** POST /api/auth/refresh: trades the cookie's single-use refresh token for a new session (and cookie). */
export function refreshSession(): Promise<AuthSession> {
  return callWithoutSession('refreshSession', { schema: authSession });
}

/** POST /api/auth/signout: revokes the cookie's refresh token and clears the cookie (204). */
export function revokeSession(): Promise<void> {
  return callWithoutSession('signOut');
}
