/**
 * Each formatter is made the first time it is used, not when this module loads: the browser's
 * first one loads ICU's data, about 10 ms (40 on a phone), which a page that formats no amount in
 * the browser, such as the server-rendered QR landing, need not spend.
 */
function lazyFormat(options: Intl.NumberFormatOptions): (value: number) => string {
  let format: Intl.NumberFormat | undefined;
  return (value) => {
    format ??= new Intl.NumberFormat('en-US', options);
    return format.format(value);
  };
}

/** Dollars as the API speaks them (numbers), shown the US way: $1,234.50. */
export const formatUsd = lazyFormat({ style: 'currency', currency: 'USD' });

export const formatCount = lazyFormat({});

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
