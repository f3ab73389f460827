/**
 * Spec section 5: the widget may send the amount as a number or as a string, possibly wrapped in
 * quotes. Anything that is not a number above 0 is no donation (the caller logs and ignores it).
 */
export function parseDonationAmount(raw: unknown): number | null {
  let amount: number;
  if (typeof raw === 'number') amount = raw;
  else if (typeof raw === 'string') amount = Number.parseFloat(raw.replace(/["']/g, '').trim());
  else return null;
  return Number.isFinite(amount) && amount > 0 ? amount : null;
}
