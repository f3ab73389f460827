const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
const count = new Intl.NumberFormat('en-US');

/** Dollars as the API speaks them (numbers), shown the US way: $1,234.50. */
export function formatUsd(amount: number): string {
  return usd.format(amount);
}

export function formatCount(value: number): string {
  return count.format(value);
}

/** An ISO timestamp or date as 'Mar 5, 2025'; whatever the server sent when it is not a date. */
export function formatDate(value: string): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  return date.toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric' });
}

/** An ISO timestamp as 'Mar 5, 2025, 2:30 PM', in the browser's time zone. */
export function formatDateTime(value: string): string {
  return new Date(value).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' });
}
