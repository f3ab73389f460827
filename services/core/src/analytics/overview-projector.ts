import { confirmedChange, confirmedMoneyEvents, scanChange, scanFigureEvents } from '@qrshirt/contracts';
import type { Projector } from '../kit/projector';
import { moneyOps, scanOps } from '../kit/daily-figures';
import { hsetFields } from '../kit/hash-fields';

export const overviewKeys = {
  /**
   * scans (counted), scanRequests, donations and amountCents (confirmed live money, net of refunds),
   * testDonations and testAmountCents (test money), fundraisers, users
   */
  totals: 'totals',
  /** fields `<yyyy-mm-dd>|scans`, `|scanRequests`, `|donations`, `|amountCents`, across all fundraisers */
  daily: 'daily',
  /** fundraiser id -> amountCents raised (live money) */
  raised: 'raised',
  /** fundraiser id -> its charity id (JSON), to rank charities at query time */
  charityOf: 'charity-of',
};

/**
 * The admin overview: figures across all fundraisers. A donation names its fundraiser, not the
 * charity, and a projector never reads, so amounts are kept per fundraiser and summed per
 * charity when asked.
 */
export const overviewProjector: Projector = {
  name: 'overview',
  eventTypes: ['FundraiserCreated', ...scanFigureEvents, ...confirmedMoneyEvents, 'UserRegistered'],
  project(event) {
    // Money the processor confirmed only: a report anyone can send moves no figure here.
    const confirmed = confirmedChange(event);
    if (confirmed) {
      const ops = moneyOps(overviewKeys.totals, overviewKeys.daily, confirmed);
      // The rankings are of money raised: test money never places a fundraiser or charity.
      if (!confirmed.live) return ops;
      return [
        ...ops,
        { op: 'hincrby', key: overviewKeys.raised, field: confirmed.fundraiserId, by: confirmed.amountCents },
      ];
    }
    const scans = scanChange(event);
    if (scans) return scanOps(overviewKeys.totals, overviewKeys.daily, scans);
    switch (event.type) {
      case 'FundraiserCreated': {
        const { fundraiserId, charityId } = event.data;
        return [
          { op: 'hincrby', key: overviewKeys.totals, field: 'fundraisers', by: 1 },
          ...hsetFields(overviewKeys.charityOf, { [fundraiserId]: charityId }),
        ];
      }
      case 'UserRegistered':
        // Accounts, not anonymous sessions.
        return event.data.method === 'anonymous'
          ? []
          : [{ op: 'hincrby', key: overviewKeys.totals, field: 'users', by: 1 }];
      default:
        return [];
    }
  },
};
