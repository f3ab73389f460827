import type { DomainEvent } from '@qrshirt/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { describeWithRedis } from '@qrshirt/test-support/vitest';
import { compactOps } from '../src/compact-ops';
import { type ReadModelStore, funnelProjector, createFunnelQueries, funnelRange } from '@qrshirt/core';
import { type BackendKind, type ReadModelBackend, memoryBackend, redisBackend } from './support/read-model-backends';

const D1 = '2026-03-01';
const D2 = '2026-03-02';
const at = (day: string, time = '10:00:00.000Z') => `${day}T${time}`;
const NOW = new Date(at(D2, '18:00:00.000Z'));

const zeros = {
  pageViews: 0,
  shirtClicks: 0,
  waitlistJoins: 0,
  fulfilled: 0,
  claimed: 0,
  scans: 0,
  donations: 0,
  amountRaised: 0,
};

/** What a day of the shop and of two shirts' fundraisers leaves in the log. */
const history: DomainEvent[] = [
  { type: 'PageViewed', data: { path: '/shop', at: at(D1) } },
  { type: 'PageViewed', data: { path: '/shirt/scan-me', at: at(D1) } },
  { type: 'PageViewed', data: { path: '/shirt/scan-me?ref=x', at: at(D1) } },
  { type: 'PageViewed', data: { path: '/shirt/plot-twist', at: at(D2) } },
  { type: 'ShirtClicked', data: { shirt_id: 'scan-me', shirt_name: 'Scan Me', at: at(D1) } },
  {
    type: 'WaitlistJoined',
    data: { entryId: 'w1', shirtId: 'scan-me', name: 'Ada', email: 'a@x.org', size: 'M', charityId: 'c', at: at(D1) },
  },
  {
    type: 'FundraiserCreated',
    data: { fundraiserId: 'f1', userId: 'u', charityId: 'c', shirtId: 'scan-me', name: 'F1', at: at(D1) },
  },
  {
    type: 'FundraiserCreated',
    data: { fundraiserId: 'f2', userId: 'u', charityId: 'c', shirtId: 'plot-twist', name: 'F2', at: at(D1) },
  },
  {
    type: 'ScanRecorded',
    data: {
      scanId: 's1',
      fundraiserId: 'f1',
      at: at(D1),
      visitorHash: 'v',
      addressHash: 'a',
      bot: false,
      counted: true,
    },
  },
  {
    type: 'ScanRecorded',
    data: {
      scanId: 's2',
      fundraiserId: 'f1',
      at: at(D1),
      visitorHash: 'v',
      addressHash: 'a',
      bot: false,
      counted: false,
    },
  },
  {
    type: 'ScanRecorded',
    data: {
      scanId: 's3',
      fundraiserId: 'f2',
      at: at(D2),
      visitorHash: 'w',
      addressHash: 'b',
      bot: false,
      counted: true,
    },
  },
  {
    type: 'DonationConfirmed',
    data: { donationId: 'd1', fundraiserId: 'f1', amountCents: 1250, currency: 'USD', reportId: null, at: at(D1) },
  },
  // Test money is no step of the funnel.
  {
    type: 'DonationConfirmed',
    data: {
      donationId: 'd2',
      fundraiserId: 'f2',
      amountCents: 5000,
      currency: 'USD',
      reportId: null,
      live: false,
      at: at(D2),
    },
  },
  // A report is not money raised.
  {
    type: 'DonationReported',
    data: {
      reportId: 'r1',
      fundraiserId: 'f2',
      amountCents: 999,
      currency: 'USD',
      source: 'widget',
      idempotencyKey: null,
      confirmedBy: null,
      at: at(D2),
    },
  },
];

/** The two steps another change adds to the contracts, in the shapes it gives them. */
const laterSteps = [
  {
    type: 'WaitlistEntryFulfilled',
    data: { entryId: 'w1', fundraiserId: 'f1', shirtId: 'scan-me', size: 'M', charityId: 'c', at: at(D2) },
  },
  { type: 'FundraiserClaimed', data: { fundraiserId: 'f1', userId: 'u2', entryId: 'w1', at: at(D2) } },
] as unknown as DomainEvent[];

async function project(store: ReadModelStore, events: readonly DomainEvent[]): Promise<void> {
  const ops = events
    .filter((event) => funnelProjector.eventTypes.includes(event.type))
    .flatMap((event, index) =>
      funnelProjector.project(event, { globalPosition: index + 1, recordedAt: new Date(at(D1)) }),
    );
  expect(await store.projection(funnelProjector.name).commit(null, events.length, compactOps(ops))).toBe(true);
}

function describeFunnel(kind: BackendKind): void {
  describe(`the funnel on the ${kind.name} read-model store`, () => {
    let backend: ReadModelBackend;
    let store: ReadModelStore;

    beforeEach(() => {
      backend = kind.open();
      store = backend.connect();
    });
    afterEach(() => backend.close());

    it('counts every step per day for every shirt together, and each shirt on its own', async () => {
      await project(store, history);
      const funnel = await createFunnelQueries(store).getFunnel({ from: D1, to: D2 }, NOW);
      expect(funnel.totals).toEqual({
        ...zeros,
        pageViews: 4,
        shirtClicks: 1,
        waitlistJoins: 1,
        scans: 2,
        donations: 1,
        amountRaised: 12.5,
      });
      expect(funnel.daily).toEqual([
        {
          date: D1,
          ...zeros,
          pageViews: 3,
          shirtClicks: 1,
          waitlistJoins: 1,
          scans: 1,
          donations: 1,
          amountRaised: 12.5,
        },
        { date: D2, ...zeros, pageViews: 1, scans: 1 },
      ]);
      expect(funnel.shirts).toEqual([
        {
          shirtId: 'scan-me',
          ...zeros,
          pageViews: 2,
          shirtClicks: 1,
          waitlistJoins: 1,
          scans: 1,
          donations: 1,
          amountRaised: 12.5,
        },
        { shirtId: 'plot-twist', ...zeros, pageViews: 1, scans: 1 },
      ]);
    });

    it("reads one shirt's funnel, its fundraisers' scans and donations included", async () => {
      await project(store, history);
      const funnel = await createFunnelQueries(store).getFunnel({ from: D1, to: D2, shirtId: 'plot-twist' }, NOW);
      expect(funnel).toMatchObject({ shirtId: 'plot-twist', totals: { ...zeros, pageViews: 1, scans: 1 } });
      expect(funnel.daily.map((day) => day.scans)).toEqual([0, 1]);
    });

    it('shows fulfilled and claimed as 0 until those events exist, and counts them once they do', async () => {
      await project(store, [...history, ...laterSteps]);
      const funnel = await createFunnelQueries(store).getFunnel({ from: D1, to: D2, shirtId: 'scan-me' }, NOW);
      expect(funnel.daily[1]).toMatchObject({ date: D2, fulfilled: 1, claimed: 1 });
      const another = backend.connect();
      expect((await createFunnelQueries(another).getFunnel({ to: D2 }, NOW)).totals).toMatchObject({
        fulfilled: 1,
        claimed: 1,
      });
    });

    it('adds a tally of scans and a sampled event at their weight, as the log holds them past its cap', async () => {
      const pastTheCap: DomainEvent[] = [
        { type: 'PageViewed', data: { path: '/shirt/plot-twist', at: at(D2), weight: 100 } },
        { type: 'ShirtClicked', data: { shirt_id: 'plot-twist', shirt_name: 'Plot Twist', at: at(D2), weight: 100 } },
        {
          type: 'ScansTallied',
          data: {
            fundraiserId: 'f2',
            from: at(D2, '09:00:00.000Z'),
            at: at(D2),
            requests: 9,
            counted: [
              { at: at(D2), visitorHash: 'x', addressHash: 'c' },
              { at: at(D2), visitorHash: 'y', addressHash: 'c' },
            ],
          },
        },
      ];
      await project(store, [...history, ...pastTheCap]);
      const funnel = await createFunnelQueries(store).getFunnel({ from: D2, to: D2, shirtId: 'plot-twist' }, NOW);
      expect(funnel.totals).toEqual({ ...zeros, pageViews: 101, shirtClicks: 100, scans: 3 });
    });

    it('fills days without activity with zeros', async () => {
      const funnel = await createFunnelQueries(store).getFunnel({}, NOW);
      expect(funnel.daily).toHaveLength(30);
      expect(funnel).toMatchObject({ from: '2026-02-01', to: D2, shirtId: null, totals: zeros, shirts: [] });
    });
  });
}

describe('the funnel range', () => {
  it('defaults to the 30 days up to today, and refuses a backwards or too long one', () => {
    expect(funnelRange({ to: D2 }, NOW)).toHaveLength(30);
    expect(funnelRange({ from: D1 }, NOW)).toEqual([D1, D2]);
    expect(() => funnelRange({ from: D2, to: D1 }, NOW)).toThrow('from must not be after to');
    expect(() => funnelRange({ from: '2025-01-01', to: D2 }, NOW)).toThrow('The range must be at most 366 days');
  });
});

describeFunnel(memoryBackend);
describeWithRedis('the funnel against a real Redis', (redis) => describeFunnel(redisBackend(redis)));
