import { EMAIL_ADDRESS } from '@qrshirt/contracts';

export const MAX_EMAIL_LENGTH = 320;

/** Expects a trimmed address. */
export function isValidEmailAddress(email: string): boolean {
  return email.length <= MAX_EMAIL_LENGTH && EMAIL_ADDRESS.test(email);
}

/** Two spellings of one address (case, surrounding blanks) are one account: both give this form. */
export const normalEmailAddress = (email: string): string => email.trim().toLowerCase();

/** Whether two addresses are the same one, in any spelling. */
export const sameEmailAddress = (a: string | null, b: string | null): boolean =>
  a !== null && b !== null && normalEmailAddress(a) === normalEmailAddress(b);
