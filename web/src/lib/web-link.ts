/**
 * Whether an address from the server may become a link's href: http(s) only. New charities are
 * checked on the way in (https), but logs written before that kept whatever a member typed, and a
 * `javascript:` href would run in the page of whoever clicks it.
 */
export function isWebLink(address: string): boolean {
  return /^https?:\/\//i.test(address.trim());
}
