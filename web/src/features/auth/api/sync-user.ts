import { type AuthSession, user, type User } from '@qrshirt/contracts';
import { api } from '@/lib/api-client';

/** POST /api/user: the backend keeps its copy of the profile in step with the signed-in user. */
export function syncUser(profile: AuthSession['user']): Promise<User> {
  return api('/api/user', {
    method: 'POST',
    requiresAuth: true,
    body: { uid: profile.uid, displayName: profile.displayName, email: profile.email, photoURL: profile.photoURL },
    schema: user,
  });
}
