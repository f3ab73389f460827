import { isoInstant } from '@qrshirt/contracts';

const DAY_MS = 86_400_000;
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Inclusive bounds in ms since the epoch; an absent bound does not limit. */
export interface ReplayWindow {
  /** Scans and donations that happened (their `at`) at or after this instant. */
  from?: number;
  /** Scans and donations that happened at or before this instant; fundraisers created later are not listed. */
  to?: number;
  /** Only events the store recorded at or before this instant (their `recordedAt`). */
  asOf?: number;
}

export type ReplayWindowField = keyof ReplayWindow;

/** A replay asked for with a value it cannot use; the message names it as the caller does. */
export class ReplayArgumentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ReplayArgumentError';
  }
}

/**
 * A day (`YYYY-MM-DD`, a UTC day) or an ISO instant with its offset. A day stands for its first
 * millisecond as a lower bound and its last as an upper one, so `from` and `to` on the same day
 * cover that whole day, and `asOf` a day means as the day ended.
 */
export function parseReplayDate(text: string, edge: 'start' | 'end'): number | undefined {
  const day = DAY.exec(text);
  if (day) {
    const [year, month, date] = [Number(day[1]), Number(day[2]), Number(day[3])];
    const start = Date.UTC(year, month - 1, date);
    // Date.UTC rolls 2025-02-30 over into March: only a day that reads back the same is real.
    if (new Date(start).toISOString().slice(0, 10) !== text) return undefined;
    return edge === 'start' ? start : start + DAY_MS - 1;
  }
  return isoInstant.safeParse(text).success ? Date.parse(text) : undefined;
}

const fieldNames: Record<ReplayWindowField, string> = { from: 'from', to: 'to', asOf: 'asOf' };

/**
 * The window for the texts given (absent or empty ones do not limit), or a ReplayArgumentError
 * whose message calls each field by `names` (a command line's flags, a URL's parameters).
 */
export function replayWindow(
  texts: Partial<Record<ReplayWindowField, string>>,
  names: Record<ReplayWindowField, string> = fieldNames,
): ReplayWindow {
  const window: ReplayWindow = {};
  const edges: Record<ReplayWindowField, 'start' | 'end'> = { from: 'start', to: 'end', asOf: 'end' };
  for (const field of ['from', 'to', 'asOf'] as const) {
    const text = texts[field]?.trim();
    if (!text) continue;
    const parsed = parseReplayDate(text, edges[field]);
    if (parsed === undefined) {
      throw new ReplayArgumentError(
        `${names[field]} must be a day (YYYY-MM-DD, UTC) or an ISO instant with an offset, got "${text}"`,
      );
    }
    window[field] = parsed;
  }
  if (window.from !== undefined && window.to !== undefined && window.from > window.to) {
    throw new ReplayArgumentError(`${names.to} is before ${names.from}`);
  }
  return window;
}
