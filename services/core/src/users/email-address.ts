import { createHash } from 'node:crypto';
import { EMAIL_ADDRESS } from '@qrshirt/contracts';

export const MAX_EMAIL_LENGTH = 320;

/** Expects a trimmed address. */
export function isValidEmailAddress(email: string): boolean {
  return email.length <= MAX_EMAIL_LENGTH && EMAIL_ADDRESS.test(email);
}

/** Two spellings of one address (case, surrounding blanks) are one account. */
export function emailKey(email: string): string {
  return createHash('sha256').update(email.trim().toLowerCase()).digest('hex');
}
