import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';

/**
 * The parameters of the address's fragment (`#token=…`), as the links our mails carry put them:
 * read once, then the fragment is taken out of the address, so a token stays out of the history
 * and a reload does not replay it. Browsers never send a fragment to a server.
 */
export function useLinkFragment<Read>(read: (fragment: URLSearchParams) => Read): Read {
  const location = useLocation();
  const navigate = useNavigate();
  const [value] = useState(() => read(new URLSearchParams(location.hash.replace(/^#/, ''))));
  useEffect(() => {
    if (location.hash) void navigate({ pathname: location.pathname, search: location.search }, { replace: true });
  }, [navigate, location.hash, location.pathname, location.search]);
  return value;
}

/** The `token` of a mailed link's fragment; null when the page was opened without one. */
export const linkToken = (fragment: URLSearchParams): string | null => fragment.get('token');
