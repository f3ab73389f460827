import type { AuthSession } from '@qrshirt/contracts';
import { startSession } from '@/lib/auth/auth-lifecycle';

export function sessionFor(user: Partial<AuthSession['user']> & { uid: string }, expiresIn = 3600): AuthSession {
  return {
    accessToken: `token-${user.uid}`,
    expiresIn,
    user: { anonymous: false, displayName: null, email: null, photoURL: null, ...user },
  };
}

/** The browser holds this user's session, as after signing in. */
export function signInAs(user: Partial<AuthSession['user']> & { uid: string }): AuthSession {
  const session = sessionFor(user);
  startSession(session);
  return session;
}
