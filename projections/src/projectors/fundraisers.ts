import type { Projector } from './projector';
import { dayOf, hsetFields } from './hash-fields';

export const fundraiserKeys = {
  fundraiser: (id: string) => `fundraiser:${id}`,
  ownedBy: (userId: string) => `user:${userId}:fundraisers`,
  /** scans, donations, amountCents */
  totals: (id: string) => `totals:${id}`,
  /** fields `<yyyy-mm-dd>|scans`, `|donations`, `|amountCents` */
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
        const { fundraiserId, at } = event.data;
        return [
          { op: 'hincrby', key: fundraiserKeys.totals(fundraiserId), field: 'scans', by: 1 },
          { op: 'hincrby', key: fundraiserKeys.daily(fundraiserId), field: `${dayOf(at)}|scans`, by: 1 },
        ];
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
