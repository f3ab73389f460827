import type { ReplayFigures, ReplayGroupBy, ReplayResult, ReplayRow } from './replay-tally';

export const replayFormats = ['csv', 'ndjson', 'table'] as const;
export type ReplayFormat = (typeof replayFormats)[number];

type Cell = string | number | null;

/** The columns naming each group; the figures follow them. */
const keyColumns: Record<ReplayGroupBy, readonly string[]> = {
  day: ['day'],
  charity: ['charityId', 'charity'],
  shirt: ['shirtId', 'shirt'],
  fundraiser: ['fundraiserId', 'fundraiser', 'charityId', 'shirtId'],
};
/**
 * A statement's columns: payments, refunds and disputes each on the day they happened, what was
 * raised of them (gross less refunds and disputes), the processor's fees and the platform's share
 * on their own days, and net (raised less the processor's fees).
 */
const figureColumns = [
  'scans',
  'donations',
  'gross',
  'refunds',
  'disputes',
  'amountRaised',
  'fees',
  'platformFees',
  'net',
  'fundraisers',
] as const;

/** Dollars with both decimals, from integer cents without going through a float; a refund's day may be negative. */
function formatDollars(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const whole = Math.abs(cents);
  return `${sign}${Math.trunc(whole / 100)}.${String(whole % 100).padStart(2, '0')}`;
}

function keyCells(row: ReplayRow, groupBy: ReplayGroupBy): Cell[] {
  switch (groupBy) {
    case 'day':
      return [row.key];
    case 'charity':
    case 'shirt':
      return [row.key, row.name];
    case 'fundraiser':
      return [row.key, row.name, row.charityId ?? null, row.shirtId ?? null];
  }
}

/** ndjson speaks dollars as numbers, as the API does; the text formats print cents exactly. */
function cells(row: ReplayRow, groupBy: ReplayGroupBy, dollars: (cents: number) => Cell): Cell[] {
  return [...keyCells(row, groupBy), ...figureCells(row, dollars)];
}

function figureCells(figures: ReplayFigures, dollars: (cents: number) => Cell): Cell[] {
  const { scans, donations, grossCents, refundedCents, disputedCents, amountCents, fundraisers } = figures;
  const money = [grossCents, refundedCents, disputedCents, amountCents, figures.feesCents, figures.platformFeesCents];
  return [scans, donations, ...[...money, figures.netCents].map(dollars), fundraisers];
}

/*
 * Fundraiser names are typed by users and analysts open these files in spreadsheets: a cell
 * starting like a formula is prefixed with a quote so it stays text (OWASP's CSV injection advice).
 */
function csvCell(cell: Cell): string {
  if (cell === null) return '';
  if (typeof cell === 'number') return String(cell);
  const text = /^[=+\-@\t\r]/.test(cell) ? `'${cell}` : cell;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

function csv(result: ReplayResult): string {
  const header = [...keyColumns[result.groupBy], ...figureColumns];
  const lines = [header, ...result.rows.map((row) => cells(row, result.groupBy, formatDollars))];
  return lines.map((line) => `${line.map(csvCell).join(',')}\r\n`).join('');
}

function ndjson(result: ReplayResult): string {
  const columns = [...keyColumns[result.groupBy], ...figureColumns];
  return result.rows
    .map((row) => {
      const values = cells(row, result.groupBy, (cents) => cents / 100);
      return `${JSON.stringify(Object.fromEntries(columns.map((column, index) => [column, values[index]])))}\n`;
    })
    .join('');
}

/** For a person at a terminal: aligned columns, numbers to the right, and a total line. */
function table(result: ReplayResult): string {
  const { groupBy, total } = result;
  const keyCount = keyColumns[groupBy].length;
  const header = [...keyColumns[groupBy], ...figureColumns];
  // A name with a line break or tab would break the alignment of every line after it.
  const body = result.rows.map((row) =>
    cells(row, groupBy, formatDollars).map((cell) => (cell === null ? '' : String(cell).replace(/[\t\r\n]/g, ' '))),
  );
  const totalLine = [
    'total',
    ...new Array<string>(keyCount - 1).fill(''),
    ...figureCells(total, formatDollars).map(String),
  ];
  const widths = header.map((title, column) =>
    Math.max(title.length, totalLine[column]!.length, ...body.map((line) => line[column]!.length)),
  );
  const render = (line: string[]) =>
    line
      .map((cell, column) => (column < keyCount ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!)))
      .join('  ')
      .trimEnd();
  const rule = widths.map((width) => '-'.repeat(width)).join('  ');
  return [render(header), rule, ...body.map(render), rule, render(totalLine)].map((line) => `${line}\n`).join('');
}

/** The whole export as text: CSV (RFC 4180, CRLF), one JSON object per line, or a table. */
export function formatReplay(result: ReplayResult, format: ReplayFormat): string {
  switch (format) {
    case 'csv':
      return csv(result);
    case 'ndjson':
      return ndjson(result);
    case 'table':
      return table(result);
  }
}
