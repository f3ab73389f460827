import type { DomainEvent } from '@qrshirt/contracts';
import { describe, expect, it } from 'vitest';
import { createReplayTally, type ReplayGroupBy } from '../src/replay/replay-tally';
import { money } from './support/statement-money';

const created: DomainEvent = {
  type: 'FundraiserCreated',
  data: {
    fundraiserId: 'f-1',
    userId: 'u-1',
    charityId: 'water',
    shirtId: 's-1',
    name: 'Run',
    at: '2026-11-01T10:00:00Z',
  },
};
const scan = (at: string): DomainEvent =>
  ({
    type: 'ScanRecorded',
    data: { fundraiserId: 'f-1', at, counted: true },
  }) as DomainEvent;
const donation = (id: string, dollars: number, at: string): DomainEvent => ({
  type: 'DonationConfirmed',
  data: { donationId: id, fundraiserId: 'f-1', amountCents: dollars * 100, currency: 'USD', reportId: null, at },
});
const repointed = (previousCharityId: string, charityId: string, at: string): DomainEvent => ({
  type: 'FundraiserCharityChanged',
  data: { fundraiserId: 'f-1', charityId, previousCharityId, at },
});

/** Created for water; a scan and $10; re-pointed to trees; two scans and $5; re-pointed back to water; $1. */
const history: DomainEvent[] = [
  created,
  scan('2026-11-01T11:00:00Z'),
  donation('d-1', 10, '2026-11-01T11:05:00Z'),
  repointed('water', 'trees', '2026-11-02T09:00:00Z'),
  scan('2026-11-02T10:00:00Z'),
  scan('2026-11-02T11:00:00Z'),
  donation('d-2', 5, '2026-11-02T11:05:00Z'),
  repointed('trees', 'water', '2026-11-03T09:00:00Z'),
  donation('d-3', 1, '2026-11-03T10:00:00Z'),
];

function replay(groupBy: ReplayGroupBy, events = history) {
  const tally = createReplayTally(groupBy, {});
  for (const event of events) tally.add(event);
  return tally.result();
}

describe('the replay of a fundraiser that changed charity', () => {
  it('credits each charity with what counted while the fundraiser supported it, the fundraiser once', () => {
    expect(replay('charity').rows).toEqual([
      { key: 'trees', name: null, scans: 2, donations: 1, ...money(500), fundraisers: 1 },
      { key: 'water', name: null, scans: 1, donations: 2, ...money(1100), fundraisers: 1 },
    ]);
  });

  it('leaves money with the charity it was given to, whatever the fundraiser supports when it moves', () => {
    const given = (type: 'DonationConfirmed' | 'DonationRefunded', cents: number, at: string) =>
      ({
        type,
        data: {
          donationId: 'pi_1',
          fundraiserId: 'f-1',
          charityId: 'water',
          amountCents: cents,
          currency: 'USD',
          reportId: null,
          donatedAt: '2026-11-01T11:05:00Z',
          remainingCents: 0,
          at,
        },
      }) as DomainEvent;
    const refundedLater = [
      created,
      given('DonationConfirmed', 2000, '2026-11-01T11:05:00Z'),
      repointed('water', 'trees', '2026-11-02T09:00:00Z'),
      given('DonationRefunded', 2000, '2026-11-03T09:00:00Z'),
    ];
    expect(replay('charity', refundedLater).rows).toEqual([
      { key: 'trees', name: null, scans: 0, donations: 0, ...money(0), fundraisers: 1 },
      { key: 'water', name: null, scans: 0, donations: 0, ...money(2000, 2000), fundraisers: 1 },
    ]);
  });

  it('leaves a charity it supported without raising anything out', () => {
    const quiet = [created, repointed('water', 'trees', '2026-11-02T09:00:00Z'), scan('2026-11-02T10:00:00Z')];
    expect(replay('charity', quiet).rows).toEqual([
      { key: 'trees', name: null, scans: 1, donations: 0, ...money(0), fundraisers: 1 },
    ]);
  });

  it('keeps the fundraiser one row, under its charity now, with all it raised', () => {
    expect(replay('fundraiser', history.slice(0, -2)).rows[0]).toMatchObject({ charityId: 'trees', amountCents: 1500 });
    expect(replay('fundraiser').rows).toEqual([
      {
        key: 'f-1',
        name: 'Run',
        charityId: 'water',
        shirtId: 's-1',
        scans: 3,
        donations: 3,
        ...money(1600),
        fundraisers: 1,
      },
    ]);
  });
});

describe('the replay of partial refunds and disputes', () => {
  const takenOff = (cents: number, remainingCents: number, at: string): DomainEvent => ({
    type: 'DonationRefunded',
    data: {
      donationId: 'd-1',
      fundraiserId: 'f-1',
      amountCents: cents,
      currency: 'USD',
      donatedAt: '2026-11-01T11:05:00Z',
      remainingCents,
      at,
    },
  });

  it('takes off what each refund took, on the day of the refund, and the donation only when nothing is left', () => {
    const partly = [created, donation('d-1', 10, '2026-11-01T11:05:00Z'), takenOff(300, 700, '2026-11-04T09:00:00Z')];
    expect(replay('day', partly).rows).toEqual([
      { key: '2026-11-01', name: null, scans: 0, donations: 1, ...money(1000), fundraisers: 1 },
      { key: '2026-11-04', name: null, scans: 0, donations: 0, ...money(0, 300), fundraisers: 1 },
    ]);
    const wholly = [...partly, takenOff(200, 500, '2026-11-05T09:00:00Z'), takenOff(500, 0, '2026-11-06T09:00:00Z')];
    expect(replay('charity', wholly).rows).toEqual([
      { key: 'water', name: null, scans: 0, donations: 0, ...money(1000, 1000), fundraisers: 1 },
    ]);
  });
});

describe('the replay of fees', () => {
  const paid = (charityId: string, at: string): DomainEvent => ({
    type: 'DonationConfirmed',
    data: {
      donationId: 'pi_1',
      fundraiserId: 'f-1',
      charityId,
      amountCents: 5000,
      currency: 'USD',
      reportId: null,
      live: true,
      at,
    },
  });
  const fee = (to: 'processor' | 'platform', amountCents: number, at: string, live = true): DomainEvent => ({
    type: 'DonationFeeCharged',
    data: {
      donationId: 'pi_1',
      fundraiserId: 'f-1',
      charityId: 'trees',
      balanceTransactionId: `txn_${to}_${at}`,
      to,
      amountCents,
      currency: 'USD',
      donatedAt: '2026-11-01T11:05:00Z',
      live,
      at,
    },
  });

  it("books each fee on its balance transaction's day, with the charity it was paid to; net is raised less Stripe's fees", () => {
    // $50 to trees; Stripe's $1.75 and the platform's $2.50 the next day, a $15 dispute fee after;
    // a fee of test money counts nowhere.
    const events = [
      created,
      paid('trees', '2026-11-01T11:05:00Z'),
      fee('processor', 175, '2026-11-02T00:00:01Z'),
      fee('platform', 250, '2026-11-02T00:00:01Z'),
      fee('processor', 1500, '2026-11-09T10:00:00Z'),
      fee('processor', 99, '2026-11-09T10:00:00Z', false),
    ];
    expect(replay('day', events).rows).toEqual([
      { key: '2026-11-01', name: null, scans: 0, donations: 1, ...money(5000), fundraisers: 1 },
      { key: '2026-11-02', name: null, scans: 0, donations: 0, ...money(0, 0, 0, 175, 250), fundraisers: 1 },
      { key: '2026-11-09', name: null, scans: 0, donations: 0, ...money(0, 0, 0, 1500), fundraisers: 1 },
    ]);
    // The fundraiser supports water now: the money and its fees stay with trees.
    const byCharity = replay('charity', events);
    expect(byCharity.rows).toEqual([
      { key: 'trees', name: null, scans: 0, donations: 1, ...money(5000, 0, 0, 1675, 250), fundraisers: 1 },
      { key: 'water', name: null, scans: 0, donations: 0, ...money(0), fundraisers: 1 },
    ]);
    expect(byCharity.total).toMatchObject({
      amountCents: 5000,
      feesCents: 1675,
      platformFeesCents: 250,
      netCents: 3325,
    });
    // A closed period keeps its figures: the dispute fee of the 9th is not the 1st's.
    const tally = createReplayTally('charity', {
      from: Date.parse('2026-11-01'),
      to: Date.parse('2026-11-02T23:59:59.999Z'),
    });
    for (const event of events) tally.add(event);
    expect(tally.result().rows[0]).toMatchObject({ key: 'trees', ...money(5000, 0, 0, 175, 250) });
  });
});

describe('the replay by day', () => {
  const scanOf = (fundraiserId: string, at: string): DomainEvent =>
    ({ type: 'ScanRecorded', data: { fundraiserId, at, counted: true } }) as DomainEvent;

  it('counts each instant on its UTC day, offsets included, and a fundraiser once a day', () => {
    const result = replay('day', [
      scanOf('f-1', '2026-11-01T23:30:00-02:00'),
      scanOf('f-1', '2026-11-02T10:00:00Z'),
      scanOf('f-2', '2026-11-02T00:30:00+01:00'),
      donation('d-1', 3, '0999-01-05T00:00:00.000Z'),
    ]);
    expect(result.rows).toEqual([
      { key: '0999-01-05', name: null, scans: 0, donations: 1, ...money(300), fundraisers: 1 },
      { key: '2026-11-01', name: null, scans: 1, donations: 0, ...money(0), fundraisers: 1 },
      { key: '2026-11-02', name: null, scans: 2, donations: 0, ...money(0), fundraisers: 1 },
    ]);
    // f-1 (the donation's and the scans') and f-2: each once, however many days it was active.
    expect(result.total).toEqual({ scans: 3, donations: 1, ...money(300), fundraisers: 2 });
  });
});
