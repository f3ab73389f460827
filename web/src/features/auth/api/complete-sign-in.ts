import type { AuthSession } from '@qrshirt/contracts';
import { startSession } from '@/lib/auth/auth-lifecycle';
import { syncUser } from './sync-user';

/** Every way of signing in ends here: the session starts, then the profile syncs (failure only logged). */
export function completeSignIn(session: AuthSession): AuthSession {
  startSession(session);
  syncUser(session.user).catch((error: unknown) => console.warn('Syncing the signed-in user failed', error));
  return session;
}
