import { DomainError } from '../event-sourcing/decider';

export const AMOUNT_INVALID = 'amount must be a number greater than 0';
/** A ceiling far above any real donation, so a typo or a forged request cannot inflate the totals. */
export const MAX_DONATION_CENTS = 100_000_000;

/** Plain decimal dollars: digits with an optional fraction. No sign, exponent or hex. */
const decimalDollars = /^(?=\.?\d)(\d*)(?:\.(\d*))?$/;

/**
 * The widget's amount in integer cents. Spec section 5: a number, or a string with quotes
 * stripped, parsed to a number, which must be above 0. Rounding works on the decimal text, not
 * on a float, so 19.99 is 1999 and 1.005 is 101: half a cent rounds away from zero.
 */
export function parseAmountCents(amount: unknown): number {
  const text = decimalText(amount);
  const match = decimalDollars.exec(text);
  if (!match) throw new DomainError('validation', AMOUNT_INVALID);
  const whole = match[1] ?? '';
  const fraction = `${match[2] ?? ''}000`;
  const truncated = Number(whole || '0') * 100 + Number(fraction.slice(0, 2));
  const cents = fraction.charAt(2) >= '5' ? truncated + 1 : truncated;
  if (cents > MAX_DONATION_CENTS) {
    throw new DomainError('validation', `amount must be at most ${MAX_DONATION_CENTS / 100}`);
  }
  if (cents === 0) {
    throw new DomainError('validation', /[1-9]/.test(text) ? 'amount must be at least 0.01' : AMOUNT_INVALID);
  }
  return cents;
}

/** The amount as decimal text; '' (which never matches) for anything that is not a positive number. */
function decimalText(amount: unknown): string {
  // Blanks and quotes around the number, as the widget may wrap it; none inside it.
  if (typeof amount === 'string') return amount.replace(/^[\s"']+|[\s"']+$/g, '');
  if (typeof amount !== 'number' || !Number.isFinite(amount) || amount <= 0) return '';
  // String() gives the shortest text that reads back as this number: what the sender wrote.
  // It uses an exponent only below 1e-6 or from 1e21 on, where exact digits serve as well.
  const text = String(amount);
  if (!text.includes('e')) return text;
  return amount < 1 ? amount.toFixed(20) : BigInt(amount).toString();
}
