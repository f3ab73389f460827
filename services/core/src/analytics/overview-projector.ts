import { confirmedChange, confirmedMoneyEvents } from '../donations/donation-money';
import type { Projector } from '../kit/projector';
import { moneyOps, scanOps } from '../fundraisers/fundraisers-projector';
import { dayOf, hsetFields } from '../kit/hash-fields';

export const overviewKeys = {
  /** scans (counted), scanRequests, donations and amountCents (confirmed, net of refunds), fundraisers, users */
  totals: 'totals',
  /** fields `<yyyy-mm-dd>|scans`, `|scanRequests`, `|donations`, `|amountCents`, across all fundraisers */
  daily: 'daily',
  /** fundraiser id -> amountCents raised */
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
  eventTypes: ['FundraiserCreated', 'ScanRecorded', ...confirmedMoneyEvents, 'UserRegistered'],
  project(event) {
    // Money the processor confirmed only: a report anyone can send moves no figure here.
    const confirmed = confirmedChange(event);
    if (confirmed) {
      return [
        ...moneyOps(overviewKeys.totals, overviewKeys.daily, confirmed),
        { op: 'hincrby', key: overviewKeys.raised, field: confirmed.fundraiserId, by: confirmed.amountCents },
      ];
    }
    switch (event.type) {
      case 'FundraiserCreated': {
        const { fundraiserId, charityId } = event.data;
        return [
          { op: 'hincrby', key: overviewKeys.totals, field: 'fundraisers', by: 1 },
          ...hsetFields(overviewKeys.charityOf, { [fundraiserId]: charityId }),
        ];
      }
      case 'ScanRecorded':
        return scanOps(overviewKeys.totals, overviewKeys.daily, dayOf(event.data.at), event.data.counted);
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
