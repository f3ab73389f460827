import { describe, expect, it } from 'vitest';
import { type ReplayResult, formatReplay } from '../src/replay';
import { money } from './support/statement-money';

const byCharity: ReplayResult = {
  groupBy: 'charity',
  rows: [
    { key: '', name: null, scans: 1, donations: 0, ...money(0), fundraisers: 1 },
    { key: 'c-1', name: 'Water, "Now"', scans: 1200, donations: 3, ...money(100_005), fundraisers: 2 },
    { key: 'c-2', name: '=HYPERLINK("x")', scans: 7, donations: 1, ...money(50), fundraisers: 1 },
  ],
  total: { scans: 1208, donations: 4, ...money(100_055), fundraisers: 4 },
  eventsRead: 1300,
  unreadable: 0,
};

const byDay: ReplayResult = {
  groupBy: 'day',
  rows: [
    { key: '2025-03-01', name: null, scans: 10, donations: 2, ...money(2499, 500, 0, 103, 125), fundraisers: 2 },
    { key: '2025-03-02', name: null, scans: 5, donations: -1, ...money(0, 250, 100, 1500), fundraisers: 1 },
  ],
  total: { scans: 15, donations: 1, ...money(2499, 750, 100, 1603, 125), fundraisers: 2 },
  eventsRead: 17,
  unreadable: 0,
};

const byFundraiser: ReplayResult = {
  groupBy: 'fundraiser',
  rows: [
    {
      key: 'f-1',
      name: "Ada's\nrun",
      charityId: 'c-1',
      shirtId: 's-1',
      scans: 3,
      donations: 1,
      ...money(2500),
      fundraisers: 1,
    },
    {
      key: 'ghost',
      name: null,
      charityId: null,
      shirtId: null,
      scans: 1,
      donations: 0,
      ...money(0),
      fundraisers: 1,
    },
  ],
  total: { scans: 4, donations: 1, ...money(2500), fundraisers: 2 },
  eventsRead: 6,
  unreadable: 0,
};

describe('formatReplay', () => {
  it('writes CSV with a header, exact dollars, quoted text and formulas kept as text', () => {
    expect(formatReplay(byCharity, 'csv')).toBe(
      [
        'charityId,charity,scans,donations,gross,refunds,disputes,amountRaised,fees,platformFees,net,fundraisers',
        ',,1,0,0.00,0.00,0.00,0.00,0.00,0.00,0.00,1',
        'c-1,"Water, ""Now""",1200,3,1000.05,0.00,0.00,1000.05,0.00,0.00,1000.05,2',
        'c-2,"\'=HYPERLINK(""x"")",7,1,0.50,0.00,0.00,0.50,0.00,0.00,0.50,1',
        '',
      ].join('\r\n'),
    );
    expect(formatReplay(byFundraiser, 'csv').split('\r\n')[0]).toBe(
      'fundraiserId,fundraiser,charityId,shirtId,scans,donations,gross,refunds,disputes,amountRaised,fees,platformFees,net,fundraisers',
    );
    expect(formatReplay({ ...byDay, rows: [] }, 'csv')).toBe(
      'day,scans,donations,gross,refunds,disputes,amountRaised,fees,platformFees,net,fundraisers\r\n',
    );
  });

  it('writes one JSON object per line with dollars as numbers, as the API speaks them', () => {
    const lines = formatReplay(byFundraiser, 'ndjson').split('\n');
    expect(lines.at(-1)).toBe('');
    expect(lines.slice(0, -1).map((line) => JSON.parse(line))).toEqual([
      {
        fundraiserId: 'f-1',
        fundraiser: "Ada's\nrun",
        charityId: 'c-1',
        shirtId: 's-1',
        scans: 3,
        donations: 1,
        gross: 25,
        refunds: 0,
        disputes: 0,
        amountRaised: 25,
        fees: 0,
        platformFees: 0,
        net: 25,
        fundraisers: 1,
      },
      {
        fundraiserId: 'ghost',
        fundraiser: null,
        charityId: null,
        shirtId: null,
        scans: 1,
        donations: 0,
        gross: 0,
        refunds: 0,
        disputes: 0,
        amountRaised: 0,
        fees: 0,
        platformFees: 0,
        net: 0,
        fundraisers: 1,
      },
    ]);
    expect(formatReplay({ ...byDay, rows: [] }, 'ndjson')).toBe('');
  });

  it('writes a table aligned for a terminal, with the total at the bottom', () => {
    expect(formatReplay(byDay, 'table')).toBe(
      [
        'day         scans  donations  gross  refunds  disputes  amountRaised   fees  platformFees     net  fundraisers',
        '----------  -----  ---------  -----  -------  --------  ------------  -----  ------------  ------  -----------',
        '2025-03-01     10          2  24.99     5.00      0.00         19.99   1.03          1.25   18.96            2',
        '2025-03-02      5         -1   0.00     2.50      1.00         -3.50  15.00          0.00  -18.50            1',
        '----------  -----  ---------  -----  -------  --------  ------------  -----  ------------  ------  -----------',
        'total          15          1  24.99     7.50      1.00         16.49  16.03          1.25    0.46            2',
        '',
      ].join('\n'),
    );
    const fundraiserTable = formatReplay(byFundraiser, 'table').split('\n');
    expect(fundraiserTable[2]).toBe(
      "f-1           Ada's run   c-1        s-1          3          1  25.00     0.00      0.00         25.00  0.00          0.00  25.00            1",
    );
    expect(fundraiserTable).toHaveLength(7);
  });
});
