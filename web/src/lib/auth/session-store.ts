import type { AuthSession } from '@qrshirt/contracts';

/** The session the client holds: the access token lives in memory only, its expiry as a time. */
export interface ClientSession {
  accessToken: string;
  /** Epoch milliseconds at which the access token stops being accepted. */
  expiresAt: number;
  refreshToken: string;
  user: AuthSession['user'];
}

export interface AuthState {
  /** 'loading' until the first refresh or anonymous session settled (or the wait timed out). */
  status: 'loading' | 'ready';
  session: ClientSession | null;
  /** The anonymous session could not be created: requests say so in their headers. */
  anonymousFailed: boolean;
}

/** Survives reloads so a user stays signed in for as long as the refresh token lives. */
export const REFRESH_TOKEN_KEY = 'qrshirt_refresh_token';

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
  if (change.session !== undefined) persistRefreshToken(change.session?.refreshToken ?? null);
  for (const listener of listeners) listener();
}

export function toClientSession(session: AuthSession, now = Date.now()): ClientSession {
  return {
    accessToken: session.accessToken,
    expiresAt: now + session.expiresIn * 1000,
    refreshToken: session.refreshToken,
    user: session.user,
  };
}

export function storedRefreshToken(): string | null {
  try {
    return localStorage.getItem(REFRESH_TOKEN_KEY);
  } catch {
    return null;
  }
}

function persistRefreshToken(token: string | null): void {
  try {
    if (token) localStorage.setItem(REFRESH_TOKEN_KEY, token);
    else localStorage.removeItem(REFRESH_TOKEN_KEY);
  } catch {
    // Storage disabled (private mode): the session lasts as long as the tab.
  }
}

/** For tests: back to a fresh page load. */
export function resetAuthState(): void {
  state = initialState;
  for (const listener of listeners) listener();
}
