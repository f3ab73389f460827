import type { Clock } from '../kit/clock';

/**
 * How many scans and analytics events one writer of the log stores one by one per minute, from
 * all clients together, unless configured otherwise (`ANONYMOUS_EVENTS_PER_MINUTE`): about 100
 * a second, some 8.6 million events a day at most. The per-client limits bound what one address
 * adds; this bounds what many addresses add together, so a crowd of clients (or one with many
 * addresses) cannot grow the log without end.
 */
export const ANONYMOUS_EVENTS_PER_MINUTE = 6_000;

/** Past the cap, one analytics event of a kind in this many is stored, standing for this many. */
export const ANALYTICS_SAMPLE_EVERY = 100;

/** A writer's allowance of anonymous events stored one by one, in fixed minutes of its clock. */
export interface LogCap {
  /** How many of `wanted` events may be stored one by one now; they are counted against this minute. */
  take(wanted: number): number;
}

export function createLogCap({ perMinute, clock }: { perMinute: number; clock: Clock }): LogCap {
  let minute = Number.NaN;
  let used = 0;
  return {
    take(wanted) {
      const now = Math.floor(clock().getTime() / 60_000);
      if (now !== minute) {
        minute = now;
        used = 0;
      }
      const granted = Math.max(0, Math.min(wanted, perMinute - used));
      used += granted;
      return granted;
    },
  };
}

/**
 * Which analytics events past the cap are stored: every `every`-th of each kind, standing for
 * `every` (its `weight`), so the figures they add up to stay estimates of the whole.
 */
export interface AnalyticsSampler {
  /** The weight to store a past-the-cap event of `type` with, or undefined to leave it out. */
  weightOf(type: string): number | undefined;
}

export function createAnalyticsSampler(every = ANALYTICS_SAMPLE_EVERY): AnalyticsSampler {
  const seen = new Map<string, number>();
  return {
    weightOf(type) {
      const count = (seen.get(type) ?? 0) + 1;
      seen.set(type, count % every);
      return count === every ? every : undefined;
    },
  };
}
