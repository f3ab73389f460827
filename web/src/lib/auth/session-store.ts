import type { AuthSession } from '@qrshirt/contracts';

/**
 * The session the client holds: the access token lives in memory only, its expiry as a time. The
 * refresh token is the gateway's HttpOnly cookie: no script here, ours or an injected one, reads it.
 */
export interface ClientSession {
  accessToken: string;
  /** Epoch milliseconds at which the access token stops being accepted. */
  expiresAt: number;
  user: AuthSession['user'];
}

interface AuthState {
  /** 'loading' until the first refresh or anonymous session settled (or the wait timed out). */
  status: 'loading' | 'ready';
  session: ClientSession | null;
  /** The anonymous session could not be created: requests say so in their headers. */
  anonymousFailed: boolean;
}

/**
 * Only whether this browser was given a session cookie, no part of it: a page load then resumes
 * the session with a refresh rather than starting an anonymous one, and a first visit does not ask
 * for a refresh it cannot have (a 401 in the console of every new visitor).
 */
export const SESSION_HINT_KEY = 'qrshirt_has_session';
/** Where clients before the cookie kept the refresh token itself; removed on every load. */
export const LEGACY_REFRESH_TOKEN_KEY = 'qrshirt_refresh_token';

const initialState: AuthState = { status: 'loading', session: null, anonymousFailed: false };
let state = initialState;
const listeners = new Set<() => void>();

export function getAuthState(): AuthState {
  return state;
}

/** Before the first refresh or anonymous session settled. */
export function getInitialAuthState(): AuthState {
  return initialState;
}

export function subscribeToAuth(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function updateAuthState(change: Partial<AuthState>): void {
  state = { ...state, ...change };
  if (change.session !== undefined) rememberSession(change.session !== null);
  for (const listener of listeners) listener();
}

export function toClientSession(session: AuthSession, now = Date.now()): ClientSession {
  return { accessToken: session.accessToken, expiresAt: now + session.expiresIn * 1000, user: session.user };
}

/** Whether the last page of this browser had a session (so the cookie may still be there). */
export function hadSession(): boolean {
  try {
    return localStorage.getItem(SESSION_HINT_KEY) !== null;
  } catch {
    // Storage disabled (private mode): the cookie may be there all the same; a refresh finds out.
    return true;
  }
}

function rememberSession(has: boolean): void {
  try {
    if (has) localStorage.setItem(SESSION_HINT_KEY, '1');
    else localStorage.removeItem(SESSION_HINT_KEY);
  } catch {
    // Storage disabled: hadSession always says yes then.
  }
}

/** An older client's refresh token, readable by any script of the page: it goes, unused. */
export function forgetLegacyRefreshToken(): void {
  try {
    localStorage.removeItem(LEGACY_REFRESH_TOKEN_KEY);
  } catch {
    // Storage disabled: nothing was kept there either.
  }
}

/** For tests: back to a fresh page load. */
export function resetAuthState(): void {
  state = initialState;
  for (const listener of listeners) listener();
}
