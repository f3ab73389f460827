import { createHash } from 'node:crypto';

export const MAX_EMAIL_LENGTH = 320;

/**
 * The HTML living standard's valid e-mail address, which is what the client's
 * `<input type="email">` enforces: the server refuses what that input would not submit.
 */
const htmlEmail =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;

/** Expects a trimmed address. */
export function isValidEmailAddress(email: string): boolean {
  return email.length <= MAX_EMAIL_LENGTH && htmlEmail.test(email);
}

/** Two spellings of one address (case, surrounding blanks) are one account. */
export function emailKey(email: string): string {
  return createHash('sha256').update(email.trim().toLowerCase()).digest('hex');
}
