/**
 * One CSV line (RFC 4180, CRLF): a value with a comma, quote or line break is quoted, quotes
 * doubled. A value a spreadsheet would run as a formula (=, +, -, @, tab, CR first) is prefixed
 * with an apostrophe: exports hold what visitors typed, and opening one must not run it.
 */
export function csvLine(values: readonly string[]): string {
  return `${values.map(csvValue).join(',')}\r\n`;
}

function csvValue(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}
