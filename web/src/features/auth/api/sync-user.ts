import { type AuthSession, user, type User } from '@qrshirt/contracts';
import { call } from '@/lib/api-client';

/** POST /api/user: the backend keeps its copy of the profile in step with the signed-in user. */
export function syncUser(profile: AuthSession['user']): Promise<User> {
  return call('syncUser', {
    body: { uid: profile.uid, displayName: profile.displayName, email: profile.email, photoURL: profile.photoURL },
    schema: user,
  });
}
