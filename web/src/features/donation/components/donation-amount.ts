import { CHECKOUT_MAX_DOLLARS as MAX_DONATION, CHECKOUT_MIN_DOLLARS as MIN_DONATION } from '@qrshirt/contracts';
import { formatUsd } from '@/lib/format';

/** The amounts the donation card offers at a tap, in dollars. */
export const PRESET_AMOUNTS = [5, 10, 25, 50] as const;

/** An amount the donor typed (Mantine's NumberInput: a number, or '' when empty), or why it cannot be. */
export function checkCustomAmount(typed: number | string): { amount: number } | { error: string } {
  const amount = typeof typed === 'number' ? typed : Number.parseFloat(typed);
  if (typed === '' || !Number.isFinite(amount)) return { error: 'Enter an amount in dollars' };
  if (amount < MIN_DONATION) return { error: `The smallest donation is ${formatUsd(MIN_DONATION)}` };
  if (amount > MAX_DONATION) return { error: `The largest donation is ${formatUsd(MAX_DONATION)}` };
  if (Math.round(amount * 100) !== Number((amount * 100).toFixed(6))) return { error: 'Dollars and cents only' };
  return { amount };
}
