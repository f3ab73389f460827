import type { DailyStats } from '@qrshirt/contracts';

export interface DailyPoint {
  date: string;
  scans: number;
  donations: number;
}

/** Adds up several fundraisers' per-day series into one, oldest day first. */
export function combineDaily(series: DailyStats[][]): DailyPoint[] {
  const byDate = new Map<string, DailyPoint>();
  for (const days of series) {
    for (const day of days) {
      const point = byDate.get(day.date) ?? { date: day.date, scans: 0, donations: 0 };
      point.scans += day.scans;
      point.donations += day.donations;
      byDate.set(day.date, point);
    }
  }
  return [...byDate.values()].sort((a, b) => a.date.localeCompare(b.date));
}
