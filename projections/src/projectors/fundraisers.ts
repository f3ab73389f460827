import { confirmedChange, confirmedMoneyEvents, reportedChange, reportedMoneyEvents } from './donation-money';
import type { Projector } from './projector';
import { dayOf, hsetFields } from './hash-fields';

export const fundraiserKeys = {
  fundraiser: (id: string) => `fundraiser:${id}`,
  ownedBy: (userId: string) => `user:${userId}:fundraisers`,
  /** scans, donations and amountCents (confirmed, net of refunds), reportedCents (awaiting confirmation) */
  totals: (id: string) => `totals:${id}`,
  /** fields `<yyyy-mm-dd>|scans`, `|donations`, `|amountCents` */
  daily: (id: string) => `daily:${id}`,
};

/**
 * Fundraisers, who owns them, and their scan and donation figures in total and per day: money the
 * processor confirmed, net of refunds, and apart from it the money reported and not confirmed yet.
 */
export const fundraisersProjector: Projector = {
  name: 'fundraisers',
  eventTypes: ['FundraiserCreated', 'ScanRecorded', ...confirmedMoneyEvents, ...reportedMoneyEvents],
  project(event) {
    const confirmed = confirmedChange(event);
    if (confirmed) {
      const { fundraiserId, at, donations, amountCents } = confirmed;
      const day = dayOf(at);
      return [
        { op: 'hincrby', key: fundraiserKeys.totals(fundraiserId), field: 'donations', by: donations },
        { op: 'hincrby', key: fundraiserKeys.totals(fundraiserId), field: 'amountCents', by: amountCents },
        { op: 'hincrby', key: fundraiserKeys.daily(fundraiserId), field: `${day}|donations`, by: donations },
        { op: 'hincrby', key: fundraiserKeys.daily(fundraiserId), field: `${day}|amountCents`, by: amountCents },
      ];
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
          { op: 'sadd', key: fundraiserKeys.ownedBy(userId), member: fundraiserId },
        ];
      }
      case 'ScanRecorded': {
        const { fundraiserId, at } = event.data;
        return [
          { op: 'hincrby', key: fundraiserKeys.totals(fundraiserId), field: 'scans', by: 1 },
          { op: 'hincrby', key: fundraiserKeys.daily(fundraiserId), field: `${dayOf(at)}|scans`, by: 1 },
        ];
      }
      default:
        return [];
    }
  },
};
