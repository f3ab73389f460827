/**
 * Query parameters that carry credentials (an OAuth code, a token for a stream that cannot send
 * headers) or a person's data: no route takes those, but a link or a form may still send them.
 */
const REDACTED_PARAMS =
  /^(access_token|token|refresh_token|refreshToken|code|password|secret|key|e?mail|name|displayName|phone|phoneNumber)$/i;

/**
 * The URL as logged: secret and personal query values replaced, so a request line never carries
 * a credential or someone's name (the logger masks addresses in any other parameter).
 */
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
      return REDACTED_PARAMS.test(decoded) ? `${name}=[redacted]` : pair;
    });
  return `${url.slice(0, query)}?${params.join('&')}`;
}
