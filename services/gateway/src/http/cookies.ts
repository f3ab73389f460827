import type { Request } from 'express';

/**
 * The request's cookies by name. Values are taken as sent: every cookie this product sets is
 * base64url or a dotted pair of such, which no encoding changes.
 */
export function readCookies(req: Request): Record<string, string> {
  const cookies: Record<string, string> = {};
  for (const part of req.get('cookie')?.split(';') ?? []) {
    const at = part.indexOf('=');
    if (at === -1) continue;
    const name = part.slice(0, at).trim();
    // The first of two with one name is the one with the longer path (RFC 6265, 5.4): the more specific.
    if (name && !Object.hasOwn(cookies, name)) cookies[name] = part.slice(at + 1).trim();
  }
  return cookies;
}

export function readCookie(req: Request, name: string): string | undefined {
  return readCookies(req)[name];
}
