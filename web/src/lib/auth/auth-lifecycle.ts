import { ANONYMOUS_AUTH_META, type AuthSession } from '@qrshirt/contracts';
import { AUTH_INIT_WAIT_MS } from '@/config/constants';
import { isApiError } from '@/lib/http';
import { createAnonymousSession, refreshSession, revokeSession } from './session-endpoints';
import {
  type ClientSession,
  forgetLegacyRefreshToken,
  getAuthState,
  hadSession,
  subscribeToAuth,
  toClientSession,
  updateAuthState,
} from './session-store';

/** Refresh this long before the access token expires, so no request carries a dead token. */
const REFRESH_MARGIN_MS = 60_000;
const MIN_REFRESH_DELAY_MS = 5_000;

let refreshTimer: ReturnType<typeof setTimeout> | undefined;
let refreshing: Promise<ClientSession | null> | undefined;
let initialising: Promise<void> | undefined;

/** Other tabs of the same site share the session, so one tab's refresh never strands another. */
const tabs = typeof BroadcastChannel === 'function' ? new BroadcastChannel('qrshirt-auth') : undefined;
// Node's BroadcastChannel (component tests) would keep the test process alive; browsers have no unref.
(tabs as { unref?: () => void } | undefined)?.unref?.();
tabs?.addEventListener('message', (event: MessageEvent<ClientSession | null>) => {
  applySession(event.data, { broadcast: false });
});

/**
 * Spec section 7: with anonymous authentication off (the gateway's ANONYMOUS_AUTH=false, which its
 * pages carry in a meta tag), a visitor has no session and requests go unauthenticated.
 */
function anonymousAuthOn(): boolean {
  if (typeof document === 'undefined') return true;
  return document.querySelector(`meta[name="${ANONYMOUS_AUTH_META}"]`)?.getAttribute('content') !== 'false';
}

function applySession(given: ClientSession | null, { broadcast }: { broadcast: boolean }): void {
  // An anonymous session from before the switch was turned off (a refresh cookie) ends here.
  const session = given?.user.anonymous && !anonymousAuthOn() ? null : given;
  clearTimeout(refreshTimer);
  updateAuthState({ session, status: 'ready', ...(session && { anonymousFailed: false }) });
  if (broadcast) tabs?.postMessage(session);
  if (!session) return;
  const delay = Math.max(session.expiresAt - Date.now() - REFRESH_MARGIN_MS, MIN_REFRESH_DELAY_MS);
  refreshTimer = setTimeout(() => void refreshNow(), delay);
}

async function startAnonymousSession(): Promise<void> {
  if (!anonymousAuthOn()) {
    updateAuthState({ session: null, status: 'ready' });
    return;
  }
  try {
    applySession(toClientSession(await createAnonymousSession()), { broadcast: true });
  } catch (error) {
    console.warn('Anonymous sign-in failed; requests go without a token', error);
    updateAuthState({ session: null, status: 'ready', anonymousFailed: true });
  }
}

/**
 * Trades the refresh cookie for a new session. A refused one ends the session (the user is
 * signed out and carries on anonymously); a network failure keeps it for the next attempt.
 */
function refreshNow(): Promise<ClientSession | null> {
  refreshing ??= oneTabAtATime(async () => {
    // Another tab may have rotated the token while this one waited for the lock: the browser
    // sends the cookie as that tab left it.
    try {
      applySession(toClientSession(await refreshSession()), { broadcast: true });
      return getAuthState().session;
    } catch (error) {
      if (isApiError(error) && error.status < 500) {
        applySession(null, { broadcast: true });
        await startAnonymousSession();
        return getAuthState().session;
      }
      console.warn('Session refresh failed; the stored session is kept for the next attempt', error);
      if (!getAuthState().session) updateAuthState({ status: 'ready' });
      return getAuthState().session;
    }
  }).finally(() => {
    refreshing = undefined;
  });
  return refreshing;
}

/**
 * A refresh token is single use, and the server ends the session when one is presented again
 * (after a short grace for an answer a page never received): two tabs reloading together must not
 * both trade the same token. Browsers without Web Locks (and jsdom) run the work directly.
 */
function oneTabAtATime<T>(work: () => Promise<T>): Promise<T> {
  const locks = typeof navigator === 'object' ? navigator.locks : undefined;
  // lib.dom types the answer as a promise of the callback's promise; it settles with its value.
  return locks ? (locks.request('qrshirt-auth-refresh', work) as Promise<T>) : work();
}

/** Once per page load: resume the session of the cookie, else start an anonymous one. */
export function initAuth(): Promise<void> {
  initialising ??= (async () => {
    forgetLegacyRefreshToken();
    if (hadSession()) await refreshNow();
    else await startAnonymousSession();
  })();
  return initialising;
}

/** Spec section 4: waiting for auth initialisation gives up after 1 s; requests then go as they can. */
export function authReady(timeoutMs = AUTH_INIT_WAIT_MS): Promise<void> {
  if (getAuthState().status === 'ready') return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      unsubscribe();
      resolve();
    };
    const timer = setTimeout(done, timeoutMs);
    const unsubscribe = subscribeToAuth(() => {
      if (getAuthState().status === 'ready') done();
    });
  });
}

/** The session to send with a request, refreshed first when its access token is about to expire. */
export async function sessionForRequest(): Promise<ClientSession | null> {
  const { session } = getAuthState();
  if (session && session.expiresAt - Date.now() < REFRESH_MARGIN_MS / 2) return refreshNow();
  return session;
}

/** After a 401 on a token we believed valid (e.g. the server restarted its keys). */
export function renewSession(): Promise<ClientSession | null> {
  return refreshNow();
}

/** Sign-in, sign-up and Google hand their session here. */
export function startSession(session: AuthSession): void {
  applySession(toClientSession(session), { broadcast: true });
}

/** Revokes the refresh cookie (a failure is only logged) and continues as an anonymous visitor. */
export async function signOut(): Promise<void> {
  applySession(null, { broadcast: true });
  await revokeSession().catch((error: unknown) => console.warn('Sign-out revoke failed', error));
  await startAnonymousSession();
}

/**
 * After a profile update or a change of address: the greeting and the next sync show the new name,
 * photo and address.
 */
export function updateSessionUser(
  change: Partial<Pick<ClientSession['user'], 'displayName' | 'photoURL' | 'email'>>,
): void {
  const { session } = getAuthState();
  if (session) applySession({ ...session, user: { ...session.user, ...change } }, { broadcast: true });
}
