import type { DailyStats } from '@qrshirt/contracts';

const DAY_MS = 24 * 60 * 60_000;

/**
 * How long after midnight (UTC) a day's summary waits: scans are stamped by the gateway that took
 * them but stored and projected a moment later, so the day's last ones need time to be counted.
 */
export const SUMMARY_SETTLE_MS = 15 * 60_000;

/** One shirt's figures on the day. */
export interface ShirtDay {
  fundraiserId: string;
  name: string;
  /** Counted scans: people, not requests. */
  scans: number;
  /** Confirmed by the processor, net of refunds. */
  donations: number;
  amountRaised: number;
}

export interface DailySummary {
  /** `yyyy-mm-dd`, UTC, as the per-day series count. */
  day: string;
  /** The shirts that had anything that day, in the owner's order. */
  shirts: ShirtDay[];
  scans: number;
  donations: number;
  amountRaised: number;
}

/** A shirt as the read model shows it to its owner: its name and its per-day series. */
export interface ShirtSeries {
  fundraiserId: string;
  name: string;
  daily: readonly DailyStats[];
}

/** The UTC day whose summary is due at `now`: the last one that ended and settled. */
export function dueDay(now: Date): string {
  return new Date(now.getTime() - SUMMARY_SETTLE_MS - DAY_MS).toISOString().slice(0, 10);
}

/*
 * A refund alone is no news to celebrate, and a day of nothing but refunds would read as a
 * summary of losses: a day counts when someone scanned a shirt or money came in.
 */
const active = (shirt: ShirtDay) => shirt.scans > 0 || shirt.donations > 0 || shirt.amountRaised > 0;

/** The owner's summary of `day`; null on a quiet day, when no mail goes out. */
export function summariseDay(day: string, shirts: readonly ShirtSeries[]): DailySummary | null {
  const busy = shirts
    .map(({ fundraiserId, name, daily }): ShirtDay => {
      const figures = daily.find((entry) => entry.date === day);
      return {
        fundraiserId,
        name,
        scans: figures?.scans ?? 0,
        donations: figures?.donations ?? 0,
        amountRaised: figures?.amountRaised ?? 0,
      };
    })
    .filter(active);
  if (busy.length === 0) return null;
  const sum = (pick: (shirt: ShirtDay) => number) => busy.reduce((total, shirt) => total + pick(shirt), 0);
  return {
    day,
    shirts: busy,
    scans: sum((shirt) => shirt.scans),
    donations: sum((shirt) => shirt.donations),
    // In cents while adding, so dollars and cents add up exactly.
    amountRaised: sum((shirt) => Math.round(shirt.amountRaised * 100)) / 100,
  };
}
