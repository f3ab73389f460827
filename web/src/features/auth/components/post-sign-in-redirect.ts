import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { REDIRECT_AFTER_SIGN_IN_MS } from '@/config/constants';
import { DEFAULT_POST_LOGIN_PATH } from '@/config/paths';

/** Google's round trip leaves the site, so where the visitor came from waits in the tab's storage. */
const FROM_KEY = 'qrshirt_signin_from';

/** Only paths of this site: a crafted link must not send a fresh sign-in elsewhere. */
function sitePath(value: unknown): string | null {
  return typeof value === 'string' && value.startsWith('/') && !value.startsWith('//') ? value : null;
}

function readStoredFrom(): string | null {
  try {
    return sitePath(sessionStorage.getItem(FROM_KEY));
  } catch {
    return null;
  }
}

/**
 * Spec: after a successful sign-in the user goes, 1.5 s later and replacing history, to the page
 * that sent them here (default /dashboard), or to `returnTo` (a page that signs its visitor in
 * itself, and comes back to itself after Google's round trip).
 */
export function usePostSignInRedirect(returnTo?: string) {
  const location = useLocation();
  const navigate = useNavigate();
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const from =
    sitePath(returnTo) ??
    sitePath((location.state as { from?: unknown } | null)?.from) ??
    readStoredFrom() ??
    DEFAULT_POST_LOGIN_PATH;

  useEffect(() => () => clearTimeout(timer.current), []);

  return {
    from,
    redirectSoon: () => {
      clearTimeout(timer.current);
      timer.current = setTimeout(() => {
        try {
          sessionStorage.removeItem(FROM_KEY);
        } catch {
          // Nothing stored then.
        }
        void navigate(from, { replace: true });
      }, REDIRECT_AFTER_SIGN_IN_MS);
    },
    /** Before leaving for Google. */
    rememberFrom: () => {
      try {
        sessionStorage.setItem(FROM_KEY, from);
      } catch {
        // Without storage the default destination applies after the round trip.
      }
    },
  };
}
