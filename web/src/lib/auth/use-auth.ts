import { useSyncExternalStore } from 'react';
import { getAuthState, getInitialAuthState, subscribeToAuth } from './session-store';

export type SignedInUser = { uid: string; displayName: string | null; email: string | null; photoURL: string | null };

type AuthView =
  | { status: 'loading'; user: null }
  | { status: 'signed-in'; user: SignedInUser }
  | { status: 'signed-out'; user: null };

/**
 * Spec section 4: loading, signed in (non-anonymous) or signed out; anonymous counts as signed out.
 * A server-rendered page, and its hydration, show the loading state: no session is known there.
 */
export function useAuth(): AuthView {
  const { status, session } = useSyncExternalStore(subscribeToAuth, getAuthState, getInitialAuthState);
  if (status === 'loading') return { status: 'loading', user: null };
  if (!session || session.user.anonymous) return { status: 'signed-out', user: null };
  const { uid, displayName, email, photoURL } = session.user;
  return { status: 'signed-in', user: { uid, displayName, email, photoURL } };
}
