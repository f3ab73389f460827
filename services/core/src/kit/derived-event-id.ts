import { createHash } from 'node:crypto';

/**
 * An event id (UUID-shaped) derived from another event's id for one purpose, such as a migration's
 * copy of it: a retried append of the same copies is recognised by the server as the same append,
 * and a copy never reuses the id of the event it replaces.
 */
export function derivedEventId(purpose: string, originalId: string): string {
  const hex = createHash('sha256').update(`${purpose}:${originalId}`).digest('hex');
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
