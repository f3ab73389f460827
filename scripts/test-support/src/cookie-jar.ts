import type { ApiClient } from './api-client';

/** A client that keeps the cookies its answers set, as one browser does. */
export interface Browser extends ApiClient {
  /** The value the browser holds for the cookie, if any. */
  cookie(name: string): string | undefined;
}

interface StoredCookie {
  value: string;
  path: string;
}

/** RFC 6265, 5.1.4: the cookie's path is the request's, or a folder of it. */
function pathMatches(requestPath: string, cookiePath: string): boolean {
  if (requestPath === cookiePath) return true;
  if (!requestPath.startsWith(cookiePath)) return false;
  return cookiePath.endsWith('/') || requestPath[cookiePath.length] === '/';
}

function parseSetCookie(header: string): { name: string; cookie: StoredCookie; expired: boolean } {
  const [pair = '', ...attributes] = header.split(';').map((part) => part.trim());
  const at = pair.indexOf('=');
  const cookie: StoredCookie = { value: pair.slice(at + 1), path: '/' };
  let expired = false;
  for (const attribute of attributes) {
    const [key = '', value = ''] = attribute.split('=');
    const name = key.toLowerCase();
    if (name === 'path') cookie.path = value;
    if (name === 'max-age' && Number(value) <= 0) expired = true;
    if (name === 'expires' && Date.parse(value) <= Date.now()) expired = true;
  }
  return { name: pair.slice(0, at), cookie, expired };
}

/**
 * `api` with a cookie jar: sends the cookies whose path covers each request (a `cookie` header
 * the caller gives instead wins) and keeps or drops what each answer sets. One per browser the
 * test plays; Secure is ignored, as browsers do for localhost, and expiry is the server's to check.
 */
export function withCookieJar(api: ApiClient): Browser {
  const jar = new Map<string, StoredCookie>();
  const browser = async (...[method, path, options = {}]: Parameters<ApiClient>) => {
    const requestPath = path.split('?')[0]!;
    const sent = [...jar]
      .filter(([, cookie]) => pathMatches(requestPath, cookie.path))
      .map(([name, cookie]) => `${name}=${cookie.value}`);
    const answer = await api(method, path, {
      ...options,
      headers: { ...(sent.length > 0 && { cookie: sent.join('; ') }), ...options.headers },
    });
    for (const header of answer.headers.getSetCookie()) {
      const { name, cookie, expired } = parseSetCookie(header);
      if (expired) jar.delete(name);
      else jar.set(name, cookie);
    }
    return answer;
  };
  return Object.assign(browser, { cookie: (name: string) => jar.get(name)?.value });
}
