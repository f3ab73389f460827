/** Query parameters that carry credentials: an OAuth code, a token for a stream that cannot send headers. */
const SECRET_PARAMS = /^(access_token|token|refresh_token|refreshToken|code|password|secret|key)$/i;

/** The URL as logged: secret query values replaced, so a request line never carries a credential. */
export function redactUrl(url: string): string {
  const query = url.indexOf('?');
  if (query === -1) return url;
  const params = url
    .slice(query + 1)
    .split('&')
    .map((pair) => {
      const name = pair.split('=', 1)[0] ?? '';
      let decoded = name;
      try {
        decoded = decodeURIComponent(name);
      } catch {
        // A malformed name is logged as sent; it cannot match a secret's name anyway.
      }
      return SECRET_PARAMS.test(decoded) ? `${name}=[redacted]` : pair;
    });
  return `${url.slice(0, query)}?${params.join('&')}`;
}
