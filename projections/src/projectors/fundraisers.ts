import {
  type ConfirmedChange,
  confirmedChange,
  confirmedMoneyEvents,
  reportedChange,
  reportedMoneyEvents,
} from './donation-money';
import type { Projector } from './projector';
import { dayOf, hsetFields } from './hash-fields';
import type { ReadModelOp } from '../store/read-model-store';

export const fundraiserKeys = {
  fundraiser: (id: string) => `fundraiser:${id}`,
  ownedBy: (userId: string) => `user:${userId}:fundraisers`,
  /** scans (counted), scanRequests (every one), donations and amountCents (confirmed, net of refunds), reportedCents (awaiting confirmation) */
  totals: (id: string) => `totals:${id}`,
  /** fields `<yyyy-mm-dd>|scans`, `|scanRequests`, `|donations`, `|amountCents` */
  daily: (id: string) => `daily:${id}`,
};

/**
 * Fundraisers, who owns them, and their scan and donation figures in total and per day: money the
 * processor confirmed, net of refunds, and apart from it the money reported and not confirmed yet.
 */
export const fundraisersProjector: Projector = {
  name: 'fundraisers',
  eventTypes: [
    'FundraiserCreated',
    'FundraiserClaimed',
    'ScanRecorded',
    ...confirmedMoneyEvents,
    ...reportedMoneyEvents,
  ],
  project(event) {
    const confirmed = confirmedChange(event);
    if (confirmed) {
      const { fundraiserId } = confirmed;
      return moneyOps(fundraiserKeys.totals(fundraiserId), fundraiserKeys.daily(fundraiserId), confirmed);
    }
    const reported = reportedChange(event);
    if (reported) {
      return [
        {
          op: 'hincrby',
          key: fundraiserKeys.totals(reported.fundraiserId),
          field: 'reportedCents',
          by: reported.cents,
        },
      ];
    }
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
          // An operator's fundraiser for a waitlist entry is on nobody's list until it is claimed.
          ...(userId === null
            ? []
            : [{ op: 'sadd', key: fundraiserKeys.ownedBy(userId), member: fundraiserId } as const]),
        ];
      }
      case 'FundraiserClaimed': {
        // Its figures stay where they were counted: the owner sees the scans and donations made before.
        const { fundraiserId, userId } = event.data;
        return [
          ...hsetFields(fundraiserKeys.fundraiser(fundraiserId), { userId }),
          { op: 'sadd', key: fundraiserKeys.ownedBy(userId), member: fundraiserId },
        ];
      }
      case 'ScanRecorded': {
        // Whether it counted was decided once, by the scans' single writer (scan-counting.ts in core).
        const { fundraiserId, at, counted } = event.data;
        const day = dayOf(at);
        return scanOps(fundraiserKeys.totals(fundraiserId), fundraiserKeys.daily(fundraiserId), day, counted);
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

/** A change of confirmed money in a totals hash and a per-day hash (the day the donation counted on). */
export function moneyOps(
  totals: string,
  daily: string,
  { at, donations, amountCents }: ConfirmedChange,
): ReadModelOp[] {
  const day = dayOf(at);
  return [
    { op: 'hincrby', key: totals, field: 'donations', by: donations },
    { op: 'hincrby', key: totals, field: 'amountCents', by: amountCents },
    { op: 'hincrby', key: daily, field: `${day}|donations`, by: donations },
    { op: 'hincrby', key: daily, field: `${day}|amountCents`, by: amountCents },
  ];
}
