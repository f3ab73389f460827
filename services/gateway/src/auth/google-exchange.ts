import type { Accounts, Clock, CredentialsStore } from '@qrshirt/core';
import { authError } from './auth-errors';
import type { StrategyOutcome } from './run-strategy';
import { newSecret, sha256 } from './secrets';
import type { IssuedSession, Sessions } from './sessions';

/** The browser trades the code for tokens right after the redirect; a minute is plenty. */
const EXCHANGE_CODE_TTL_MS = 60_000;

/** The code as stored: only with the browser's binding can it be found again. */
const boundCodeHash = (code: string, binding: string) => sha256(`${code}:${binding}`);

/** The sign-in page, showing the auth code of a sign-in that did not succeed. */
export const signInPageError = (code: string): string => `/signin#error=${code}`;

/** The auth code the sign-in page shows for a sign-in that did not succeed. */
function failureCode(info: unknown, providerError: unknown): string {
  if (typeof info === 'object' && info !== null && 'code' in info && typeof info.code === 'string') return info.code;
  if (providerError === 'access_denied') return 'popup-closed-by-user';
  if (providerError) return 'internal-error';
  // The state did not match this browser's: another sign-in was started after this one.
  return 'cancelled-popup-request';
}

interface GoogleExchangeDeps {
  accounts: Accounts;
  sessions: Sessions;
  credentials: CredentialsStore;
  clock: Clock;
}

/**
 * The end of Google's authorization-code flow. The callback never puts tokens in a URL: it
 * redirects to the sign-in page with a one-time code in the fragment (never sent to a server, so
 * never logged), which the page trades for a session. The code is bound to the browser that
 * started the sign-in (a random value in a cookie of its own, the `binding`).
 */
export function createGoogleExchange({ accounts, sessions, credentials, clock }: GoogleExchangeDeps) {
  return {
    /**
     * Where the callback sends the browser once Google's strategy has run: the sign-in page with a
     * one-time code, or with the auth code of what went wrong. `providerError` is the `error`
     * Google's redirect carried, if any.
     */
    async finish(outcome: StrategyOutcome, binding: string | undefined, providerError: unknown): Promise<string> {
      if (!outcome.user) return signInPageError(failureCode(outcome.info, providerError));
      // The state cookie proved this browser started the sign-in, so it holds the binding too.
      if (!binding) return signInPageError('cancelled-popup-request');
      const code = newSecret();
      const now = clock().getTime();
      const expiresAt = now + EXCHANGE_CODE_TTL_MS;
      await credentials.addOneTimeCode(
        'google-exchange',
        boundCodeHash(code, binding),
        { uid: outcome.user.uid, expiresAt },
        now,
      );
      return `/signin#google=${code}`;
    },

    /** A session for the code's user, when the browser's binding is the one the code was issued to. */
    async exchange(code: string, binding: string | undefined): Promise<IssuedSession> {
      // Another browser's attempt finds nothing and burns nothing: the code stays its owner's.
      const found = binding
        ? await credentials.takeOneTimeCode('google-exchange', boundCodeHash(code, binding), clock().getTime())
        : null;
      if (!found) throw authError(401, 'code-expired');
      const { uid } = found;
      return sessions.start({ uid, anonymous: false }, await accounts.profile(uid));
    },
  };
}
export type GoogleExchange = ReturnType<typeof createGoogleExchange>;
