import type { Projector } from './projector';
import { dayOf, hsetFields } from './hash-fields';
import type { ReadModelOp } from '../store/read-model-store';

export const fundraiserKeys = {
  fundraiser: (id: string) => `fundraiser:${id}`,
  ownedBy: (userId: string) => `user:${userId}:fundraisers`,
  /** scans (counted), scanRequests (every one), donations, amountCents */
  totals: (id: string) => `totals:${id}`,
  /** fields `<yyyy-mm-dd>|scans`, `|scanRequests`, `|donations`, `|amountCents` */
  daily: (id: string) => `daily:${id}`,
};

/** Fundraisers, who owns them, and their scan and donation figures in total and per day. */
export const fundraisersProjector: Projector = {
  name: 'fundraisers',
  eventTypes: ['FundraiserCreated', 'ScanRecorded', 'DonationRecorded'],
  project(event) {
    switch (event.type) {
      case 'FundraiserCreated': {
        const { fundraiserId, userId, charityId, shirtId, name, at } = event.data;
        return [
          ...hsetFields(fundraiserKeys.fundraiser(fundraiserId), {
            id: fundraiserId,
            userId,
            charityId,
            shirtId,
            name,
            createdAt: at,
          }),
          { op: 'sadd', key: fundraiserKeys.ownedBy(userId), member: fundraiserId },
        ];
      }
      case 'ScanRecorded': {
        // Whether it counted was decided once, by the scans' single writer (scan-counting.ts in core).
        const { fundraiserId, at, counted } = event.data;
        const day = dayOf(at);
        return scanOps(fundraiserKeys.totals(fundraiserId), fundraiserKeys.daily(fundraiserId), day, counted);
      }
      case 'DonationRecorded': {
        const { fundraiserId, amountCents, at } = event.data;
        const day = dayOf(at);
        return [
          { op: 'hincrby', key: fundraiserKeys.totals(fundraiserId), field: 'donations', by: 1 },
          { op: 'hincrby', key: fundraiserKeys.totals(fundraiserId), field: 'amountCents', by: amountCents },
          { op: 'hincrby', key: fundraiserKeys.daily(fundraiserId), field: `${day}|donations`, by: 1 },
          { op: 'hincrby', key: fundraiserKeys.daily(fundraiserId), field: `${day}|amountCents`, by: amountCents },
        ];
      }
      default:
        return [];
    }
  },
};

/** A scan request in a totals hash and a per-day hash: every one a request, a counted one a scan. */
export function scanOps(totals: string, daily: string, day: string, counted: boolean): ReadModelOp[] {
  const ops: ReadModelOp[] = [
    { op: 'hincrby', key: totals, field: 'scanRequests', by: 1 },
    { op: 'hincrby', key: daily, field: `${day}|scanRequests`, by: 1 },
  ];
  if (counted) {
    ops.push(
      { op: 'hincrby', key: totals, field: 'scans', by: 1 },
      { op: 'hincrby', key: daily, field: `${day}|scans`, by: 1 },
    );
  }
  return ops;
}
