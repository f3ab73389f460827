import type { ConfirmedChange, DailyStats, ScanChange } from '@qrshirt/contracts';
import { dayOf } from './hash-fields';
import type { ReadModelOp } from '../ports/read-model-store';

/*
 * The figures a fundraiser's owner and the admin overview both show, in the same shape: a totals
 * hash and a per-day hash (fields `<yyyy-mm-dd>|<measure>`), written by their projectors.
 */

const dollars = (cents: number) => cents / 100;

/** Scans in a totals hash and a per-day hash: every one a request, a counted one a scan. */
export function scanOps(totals: string, daily: string, { at, requests, counted }: ScanChange): ReadModelOp[] {
  const day = dayOf(at);
  const ops: ReadModelOp[] = [
    { op: 'hincrby', key: totals, field: 'scanRequests', by: requests },
    { op: 'hincrby', key: daily, field: `${day}|scanRequests`, by: requests },
  ];
  if (counted > 0) {
    ops.push(
      { op: 'hincrby', key: totals, field: 'scans', by: counted },
      { op: 'hincrby', key: daily, field: `${day}|scans`, by: counted },
    );
  }
  return ops;
}

/**
 * A change of confirmed money in a totals hash and a per-day hash (the day the donation counted on).
 * Test money is kept beside the live figures in the totals only, so no series or sum can add it in.
 */
export function moneyOps(
  totals: string,
  daily: string,
  { at, donations, amountCents, live }: ConfirmedChange,
): ReadModelOp[] {
  if (!live) {
    return [
      { op: 'hincrby', key: totals, field: 'testDonations', by: donations },
      { op: 'hincrby', key: totals, field: 'testAmountCents', by: amountCents },
    ];
  }
  const day = dayOf(at);
  return [
    { op: 'hincrby', key: totals, field: 'donations', by: donations },
    { op: 'hincrby', key: totals, field: 'amountCents', by: amountCents },
    { op: 'hincrby', key: daily, field: `${day}|donations`, by: donations },
    { op: 'hincrby', key: daily, field: `${day}|amountCents`, by: amountCents },
  ];
}

/** Per-day hash fields (`<yyyy-mm-dd>|<measure>`) as a series, oldest day first. */
export function dailySeries(hash: Record<string, string>): DailyStats[] {
  const days = new Map<string, DailyStats>();
  for (const [field, value] of Object.entries(hash)) {
    const [date = '', measure] = field.split('|');
    const day = days.get(date) ?? { date, scans: 0, scanRequests: 0, donations: 0, amountRaised: 0 };
    if (measure === 'scans') day.scans = Number(value);
    else if (measure === 'scanRequests') day.scanRequests = Number(value);
    else if (measure === 'donations') day.donations = Number(value);
    else if (measure === 'amountCents') day.amountRaised = dollars(Number(value));
    days.set(date, day);
  }
  return [...days.values()].sort((a, b) => a.date.localeCompare(b.date));
}
