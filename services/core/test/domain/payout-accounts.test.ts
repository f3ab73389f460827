import type { EventOf } from '@qrshirt/contracts';
import { describe, it } from 'vitest';
import { payoutAccountDecider, type UpdatePayoutAccount } from '../../src/donations/payout-account-decider';
import { deciderSpec } from './decider-spec';

const T1 = '2026-03-01T10:00:00.000Z';
const T2 = '2026-03-01T11:00:00.000Z';

describe('payout account decider', () => {
  const spec = deciderSpec(payoutAccountDecider);
  const open = (accountId: string, live = false) =>
    ({ type: 'OpenPayoutAccount', charityId: 'c-1', accountId, live, at: T1 }) as const;
  const opened = (accountId: string, live = false): EventOf<'CharityPayoutAccountOpened'> => ({
    type: 'CharityPayoutAccountOpened',
    data: { charityId: 'c-1', accountId, live, at: T1 },
  });
  const describeAccount = (accountId: string, chargesEnabled: boolean, at: string): UpdatePayoutAccount => ({
    type: 'UpdatePayoutAccount',
    charityId: 'c-1',
    accountId,
    live: false,
    chargesEnabled,
    payoutsEnabled: chargesEnabled,
    detailsSubmitted: true,
    at,
  });
  const described = (
    accountId: string,
    chargesEnabled: boolean,
    at: string,
  ): EventOf<'CharityPayoutAccountUpdated'> => {
    const { type: _type, ...data } = describeAccount(accountId, chargesEnabled, at);
    return { type: 'CharityPayoutAccountUpdated', data };
  };

  it('opens one account per mode: a second opening keeps the first', () => {
    spec
      .given([])
      .when(open('acct_1'))
      .then([opened('acct_1')]);
    spec
      .given([opened('acct_1')])
      .when(open('acct_2'))
      .then([]);
    spec
      .given([opened('acct_1')])
      .when(open('acct_live', true))
      .then([opened('acct_live', true)]);
  });

  it("keeps Stripe's latest word on its account, and nothing about another", () => {
    spec
      .given([opened('acct_1')])
      .when(describeAccount('acct_1', true, T2))
      .then([described('acct_1', true, T2)]);
    spec
      .given([opened('acct_1'), described('acct_1', true, T2)])
      .when(describeAccount('acct_1', false, T1))
      .then([]);
    spec
      .given([opened('acct_1'), described('acct_1', true, T2)])
      .when(describeAccount('acct_1', true, T2))
      .then([]);
    spec
      .given([opened('acct_1')])
      .when(describeAccount('acct_2', true, T2))
      .then([]);
  });

  it('takes a description that comes before the opening is recorded, and keeps that account', () => {
    spec
      .given([])
      .when(describeAccount('acct_1', false, T1))
      .then([described('acct_1', false, T1)]);
    spec
      .given([described('acct_1', false, T1)])
      .when(open('acct_1'))
      .then([]);
  });
});
