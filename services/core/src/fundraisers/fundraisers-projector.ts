import {
  confirmedChange,
  confirmedMoneyEvents,
  reportedChange,
  reportedMoneyEvents,
  scanChange,
  scanFigureEvents,
} from '@qrshirt/contracts';
import type { Projector } from '../kit/projector';
import { moneyOps, scanOps } from '../kit/daily-figures';
import { hsetFields, utcMinuteOf } from '../kit/hash-fields';

export const fundraiserKeys = {
  fundraiser: (id: string) => `fundraiser:${id}`,
  /** The fundraiser id a short link's code names. */
  shortCode: (code: string) => `short-code:${code}`,
  ownedBy: (userId: string) => `user:${userId}:fundraisers`,
  /**
   * scans (counted), scanRequests (every one), donations and amountCents (confirmed live money, net
   * of refunds), testDonations and testAmountCents (the same for test money)
   */
  totals: (id: string) => `totals:${id}`,
  /**
   * The cents reported on a UTC day `<yyyy-mm-dd>` and not settled yet, per minute of the report
   * (fields `<hh:mm>`): what awaits confirmation is the sum of the last 24 h's (fundraiser-queries.ts).
   */
  reported: (id: string, day: string) => `reported:${id}:${day}`,
  /** fields `<yyyy-mm-dd>|scans`, `|scanRequests`, `|donations`, `|amountCents` */
  daily: (id: string) => `daily:${id}`,
  /** scans (counted), donations and amountCents (confirmed live money) since the fundraiser took its current charity */
  sinceCharity: (id: string) => `since-charity:${id}`,
  /** The same tally for a charity it left, closed by the change at that log position. */
  closedCharity: (id: string, position: number) => `since-charity:${id}:${position}`,
  /** field: the log position of each change of charity; value: the charity it left, as JSON */
  charityChanges: (id: string) => `charity-changes:${id}`,
};

/** Log positions as fixed-width text, so the fields of a hash sort in the log's order. */
export const positionField = (position: number) => String(position).padStart(16, '0');

/**
 * Fundraisers, who owns them, and their scan and donation figures in total and per day: money the
 * processor confirmed, net of refunds, and apart from it the money reported and not confirmed yet.
 */
export const fundraisersProjector: Projector = {
  name: 'fundraisers',
  eventTypes: [
    'FundraiserCreated',
    'FundraiserClaimed',
    'FundraiserCharityChanged',
    'FundraiserRenamed',
    'FundraiserGoalSet',
    'FundraiserShortCodeAssigned',
    ...scanFigureEvents,
    ...confirmedMoneyEvents,
    ...reportedMoneyEvents,
  ],
  project(event, position) {
    const confirmed = confirmedChange(event);
    if (confirmed) {
      const { fundraiserId } = confirmed;
      // A refund comes off the current charity's tally, even for a donation made under an earlier
      // one: which charity that was would need a read, and projectors never read.
      const ops = moneyOps(fundraiserKeys.totals(fundraiserId), fundraiserKeys.daily(fundraiserId), confirmed);
      if (!confirmed.live) return ops;
      return [
        ...ops,
        { op: 'hincrby', key: fundraiserKeys.sinceCharity(fundraiserId), field: 'donations', by: confirmed.donations },
        {
          op: 'hincrby',
          key: fundraiserKeys.sinceCharity(fundraiserId),
          field: 'amountCents',
          by: confirmed.amountCents,
        },
      ];
    }
    const scans = scanChange(event);
    if (scans) {
      // Whether each counted was decided once, by the scans' single writer (scan-counting.ts).
      const { fundraiserId, counted } = scans;
      const ops = scanOps(fundraiserKeys.totals(fundraiserId), fundraiserKeys.daily(fundraiserId), scans);
      if (counted > 0) {
        ops.push({ op: 'hincrby', key: fundraiserKeys.sinceCharity(fundraiserId), field: 'scans', by: counted });
      }
      return ops;
    }
    const reported = reportedChange(event);
    if (reported) {
      // Under the report's own minute, which its settlement finds again by the report's instant.
      const minute = utcMinuteOf(reported.reportedAt);
      return [
        {
          op: 'hincrby',
          key: fundraiserKeys.reported(reported.fundraiserId, minute.slice(0, 10)),
          field: minute.slice(11),
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
      case 'FundraiserCharityChanged': {
        // The running tally is closed under the change's log position, so every scan and donation
        // before it stays with the charity it left, and the tally starts again for the new one.
        const { fundraiserId, charityId, previousCharityId, at } = event.data;
        return [
          ...hsetFields(fundraiserKeys.fundraiser(fundraiserId), { charityId }),
          {
            op: 'rename',
            key: fundraiserKeys.sinceCharity(fundraiserId),
            to: fundraiserKeys.closedCharity(fundraiserId, position.globalPosition),
          },
          ...hsetFields(fundraiserKeys.charityChanges(fundraiserId), {
            [positionField(position.globalPosition)]: { charityId: previousCharityId, until: at },
          }),
        ];
      }
      case 'FundraiserRenamed':
        return hsetFields(fundraiserKeys.fundraiser(event.data.fundraiserId), { name: event.data.name });
      case 'FundraiserGoalSet':
        return hsetFields(fundraiserKeys.fundraiser(event.data.fundraiserId), { goalCents: event.data.goalCents });
      case 'FundraiserShortCodeAssigned': {
        const { fundraiserId, code } = event.data;
        return [
          ...hsetFields(fundraiserKeys.fundraiser(fundraiserId), { shortCode: code }),
          { op: 'set', key: fundraiserKeys.shortCode(code), value: fundraiserId },
        ];
      }
      default:
        return [];
    }
  },
};
