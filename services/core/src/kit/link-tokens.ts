import { createHash, randomBytes } from 'node:crypto';

/** The secret part of a link mailed to someone (claim, confirmation): 256 random bits. */
export const newLinkSecret = (): string => randomBytes(32).toString('base64url');

/** What the log keeps of a link's token: its holder can prove it, a reader of the log cannot use it. */
export const linkTokenHash = (token: string): string => createHash('sha256').update(token).digest('hex');
