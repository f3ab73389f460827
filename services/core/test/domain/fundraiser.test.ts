import type { EventOf } from '@qrshirt/contracts';
import { describe, expect, it } from 'vitest';
import { foldEvents } from '../../src/event-sourcing/fold-events';
import { type RecordDonation, findKeyedDonation, fundraiserDecider } from '../../src/fundraisers/fundraiser-decider';
import { deciderSpec } from './decider-spec';
import { T0, T1, charity, shirt } from './fixtures';

const spec = deciderSpec(fundraiserDecider);

const created: EventOf<'FundraiserCreated'> = {
  type: 'FundraiserCreated',
  data: {
    fundraiserId: 'f-1',
    userId: 'user-1',
    charityId: 'givedirectly',
    shirtId: 'scan-me-maybe',
    name: 'Scan Me Maybe',
    at: T0,
  },
};

const donate = (amount: unknown, idempotencyKey: string | null = null): RecordDonation => ({
  type: 'RecordDonation',
  donationId: 'd-1',
  amount,
  idempotencyKey,
  source: 'widget',
  at: T1,
});

const recorded = (
  amountCents: number,
  idempotencyKey: string | null = null,
  donationId = 'd-1',
): EventOf<'DonationRecorded'> => ({
  type: 'DonationRecorded',
  data: { fundraiserId: 'f-1', donationId, amountCents, currency: 'USD', source: 'widget', idempotencyKey, at: T1 },
});

describe('fundraiser decider: creation', () => {
  const create = { type: 'CreateFundraiser', fundraiserId: 'f-1', userId: 'user-1', charity, shirt, at: T0 } as const;

  it('creates a fundraiser named after its shirt by default', () => {
    spec.given([]).when(create).then([created]);
  });

  it('uses a given name, trimmed, and the shirt name for a blank one', () => {
    spec
      .given([])
      .when({ ...create, name: '  Team Tee  ' })
      .then([{ ...created, data: { ...created.data, name: 'Team Tee' } }]);
    spec
      .given([])
      .when({ ...create, name: '   ' })
      .then([created]);
  });

  it('refuses a charity that does not exist', () => {
    spec
      .given([])
      .when({ ...create, charity: null })
      .thenFails('not_found', 'Charity not found');
  });

  it('refuses a charity awaiting review or rejected, as if it did not exist', () => {
    spec
      .given([])
      .when({ ...create, charity: { ...charity, status: 'pending' } })
      .thenFails('not_found', 'Charity not found');
    spec
      .given([])
      .when({ ...create, charity: { ...charity, status: 'rejected', rejectionReason: 'No.' } })
      .thenFails('not_found', 'Charity not found');
  });

  it('refuses a shirt that does not exist', () => {
    spec
      .given([])
      .when({ ...create, shirt: null })
      .thenFails('not_found', 'Shirt not found');
  });

  it('refuses to create the same fundraiser twice', () => {
    spec.given([created]).when(create).thenFails('conflict', 'Fundraiser already exists');
  });
});

describe('fundraiser decider: donations', () => {
  it('refuses a donation to a fundraiser that does not exist', () => {
    spec.given([]).when(donate(5)).thenFails('not_found', 'Fundraiser not found');
  });

  it.each([
    [5, 500],
    ['5', 500],
    ['"12.50"', 1250],
    ["'7'", 700],
    [' 3.5 ', 350],
    [19.99, 1999],
    ['19.99', 1999],
    [0.1 + 0.2, 30],
    // Half a cent rounds away from zero, read from the decimal digits rather than the float.
    [1.005, 101],
    ['1.005', 101],
    ['1.0049', 100],
    ['19.999', 2000],
    ['.5', 50],
    [1_000_000, 100_000_000],
  ])('records %j as %i cents', (amount, cents) => {
    spec
      .given([created])
      .when(donate(amount))
      .then([recorded(cents)]);
  });

  it.each([
    ['0'],
    [0],
    [-3],
    ['-3'],
    ['abc'],
    ['12abc'],
    ['1e3'],
    ['0x10'],
    [''],
    ['""'],
    [Number.NaN],
    [Number.POSITIVE_INFINITY],
    [null],
    [true],
    [{ amount: 5 }],
  ])('refuses %j', (amount) => {
    spec.given([created]).when(donate(amount)).thenFails('validation', 'amount must be a number greater than 0');
  });

  it.each([[1e12], ['1000000.01'], [1e25]])('refuses %j as too large', (amount) => {
    spec.given([created]).when(donate(amount)).thenFails('validation', 'amount must be at most 1000000');
  });

  it.each([[0.004], ['0.001'], [1e-7]])('refuses %j as less than a cent', (amount) => {
    spec.given([created]).when(donate(amount)).thenFails('validation', 'amount must be at least 0.01');
  });

  it('records a donation with its Idempotency-Key', () => {
    spec
      .given([created])
      .when(donate('25', 'key-1'))
      .then([recorded(2500, 'key-1')]);
  });

  it('records nothing new when a request is retried with the same key and amount', () => {
    spec
      .given([created, recorded(2500, 'key-1')])
      .when(donate(25, 'key-1'))
      .then([]);
  });

  it('refuses a key reused with a different amount', () => {
    spec
      .given([created, recorded(2500, 'key-1')])
      .when(donate(26, 'key-1'))
      .thenFails('conflict', 'Idempotency-Key was already used with a different amount');
  });

  it('records repeated donations without a key each time', () => {
    spec
      .given([created, recorded(2500)])
      .when(donate(25))
      .then([recorded(2500)]);
  });

  it('keeps totals and finds keyed donations after many events', () => {
    const donations = Array.from({ length: 1000 }, (_, i) => recorded(100 + i, `key-${i}`, `d-${i}`));
    const state = foldEvents(fundraiserDecider, [created, ...donations])!;
    expect(state.donationCount).toBe(1000);
    expect(state.raisedCents).toBe(1000 * 100 + (999 * 1000) / 2);
    expect(findKeyedDonation(state, 'key-0')).toEqual({ idempotencyKey: 'key-0', donationId: 'd-0', amountCents: 100 });
    expect(findKeyedDonation(state, 'key-1000')).toBeUndefined();
  });
});
