import {
  type EventStore,
  type ReadModelStore,
  fundraisersProjector,
  createFundraiserQueries,
  catalogProjector,
  createCatalogQueries,
} from '@qrshirt/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scaled } from '@qrshirt/test-support';
import {
  type ReplayFigures,
  type ReplayGroupBy,
  type ReplayRow,
  type ReplayWindow,
  replayDonations,
  replayGroupings,
} from '../src/replay';
import { createProjectionRunner, type ProjectionRunner } from '../src/runner';
import { createMemoryReadModelStore } from '../src/store/memory-read-model-store';
import { openTempEventStore } from './support/event-store';
import { createHistory, HISTORY_NOW, newEvent, scanBeforeCounting, userIds } from './support/history';
import { until } from './support/until';
import { money } from './support/statement-money';

/** A fundraiser id the log never created; the projector still counts its scans. */
const GHOST = 'ghost';
const everyOwner = [...userIds, 'u-3'];
const cents = (dollars: number) => Math.round(dollars * 100);
const byKey = (a: { key: string }, b: { key: string }) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

/** What both the read models and the replay count: the statement's money columns are the replay's own. */
type Shared<T> = Omit<
  T,
  'grossCents' | 'refundedCents' | 'disputedCents' | 'feesCents' | 'platformFeesCents' | 'netCents'
>;

interface Expected {
  rows: Shared<ReplayRow>[];
  total: Shared<ReplayFigures>;
}

const shared = <T extends ReplayFigures>({
  grossCents: _g,
  refundedCents: _r,
  disputedCents: _d,
  feesCents: _f,
  platformFeesCents: _p,
  netCents: _n,
  ...rest
}: T) => rest;

/**
 * What the live read models say, arranged as the replay's rows: each fundraiser's figures from its
 * stats (its per-day series when a range of days is asked for), grouped as the replay groups them.
 */
async function fromReadModels(
  store: ReadModelStore,
  groupBy: ReplayGroupBy,
  days?: { from: string; to: string },
): Promise<Expected> {
  const fundraisers = createFundraiserQueries(store, () => HISTORY_NOW);
  const catalog = createCatalogQueries(store);
  const owned = await Promise.all(everyOwner.map((owner) => fundraisers.getUserStats(owner)));
  const ids = [...owned.flatMap((stats) => stats.fundraiserStats.map((item) => item.id)), GHOST];
  const live = await Promise.all(
    ids.map(async (id) => {
      const [record, stats] = await Promise.all([fundraisers.getFundraiser(id), fundraisers.getStats(id)]);
      const daily = stats.daily.filter((day) => !days || (day.date >= days.from && day.date <= days.to));
      const figures = days
        ? daily.reduce(
            (sum, day) => ({
              scans: sum.scans + day.scans,
              donations: sum.donations + day.donations,
              amountCents: sum.amountCents + cents(day.amountRaised),
            }),
            { scans: 0, donations: 0, amountCents: 0 },
          )
        : { scans: stats.scans, donations: stats.donations, amountCents: cents(stats.amountRaised) };
      return { id, record, daily, figures };
    }),
  );

  const rows = new Map<string, Shared<ReplayRow>>();
  const add = (
    key: string,
    name: string | null,
    figures: Shared<Omit<ReplayFigures, 'fundraisers'>>,
    extra: Partial<ReplayRow> = {},
  ) => {
    const row = rows.get(key) ?? { key, name, ...extra, scans: 0, donations: 0, amountCents: 0, fundraisers: 0 };
    row.scans += figures.scans;
    row.donations += figures.donations;
    row.amountCents += figures.amountCents;
    row.fundraisers += 1;
    rows.set(key, row);
  };
  const activeOnAnyDay = new Set<string>();
  for (const { id, record, daily, figures } of live) {
    if (groupBy === 'day') {
      for (const day of daily) {
        add(day.date, null, { scans: day.scans, donations: day.donations, amountCents: cents(day.amountRaised) });
        activeOnAnyDay.add(id);
      }
    } else if (groupBy === 'fundraiser') {
      add(id, record?.name ?? null, figures, {
        charityId: record?.charityId ?? null,
        shirtId: record?.shirtId ?? null,
      });
    } else {
      const key = (groupBy === 'charity' ? record?.charityId : record?.shirtId) ?? '';
      const named = groupBy === 'charity' ? await catalog.getCharity(key) : await catalog.getShirt(key);
      add(key, named?.name ?? null, figures);
    }
  }
  const sorted = [...rows.values()].sort(byKey);
  const total = sorted.reduce(
    (sum, row) => ({
      scans: sum.scans + row.scans,
      donations: sum.donations + row.donations,
      amountCents: sum.amountCents + row.amountCents,
      fundraisers: sum.fundraisers + row.fundraisers,
    }),
    { scans: 0, donations: 0, amountCents: 0, fundraisers: 0 },
  );
  if (groupBy === 'day') total.fundraisers = activeOnAnyDay.size;
  return { rows: sorted, total };
}

async function replayed(eventStore: EventStore, groupBy: ReplayGroupBy, window?: ReplayWindow): Promise<Expected> {
  const { rows, total } = await replayDonations({ eventStore, groupBy, ...(window && { window }) });
  return { rows: rows.map(shared), total: shared(total) };
}

describe('replayDonations over a generated history of 110,000 events', () => {
  let eventStore: EventStore;
  let dispose: () => Promise<void>;
  const readModels = createMemoryReadModelStore();
  let runners: ProjectionRunner[];
  /** The read models as they stood at the cut, per grouping. */
  const atCut = new Map<ReplayGroupBy, Expected>();
  let cut: Date;

  async function caughtUp(): Promise<void> {
    await Promise.all(runners.map((runner) => runner.waitUntilCaughtUp(scaled(60_000))));
  }

  beforeAll(async () => {
    ({ eventStore, dispose } = await openTempEventStore());
    const quiet = { warn() {}, error() {} };
    runners = [fundraisersProjector, catalogProjector].map((projector) =>
      createProjectionRunner({ eventStore, store: readModels, projector, log: quiet }),
    );
    for (const runner of runners) runner.start();

    const history = createHistory(eventStore);
    await history.seed();
    await history.activity(100_000);
    // What a generated history does not have: a fundraiser without figures, a donation with an
    // offset (its UTC day is the day before its local one), an event that no longer reads as its
    // contract says, a renamed charity, and scans of a fundraiser id the log never created.
    await eventStore.appendToStream('fundraiser-f-5', [
      newEvent('FundraiserCreated', {
        fundraiserId: 'f-5',
        userId: 'u-3',
        charityId: 'c-1',
        shirtId: 's-2',
        name: "Cy's walk",
        at: '2025-02-01T00:00:00.000Z',
      }),
    ]);
    await eventStore.appendToStream('fundraiser-f-1', [
      newEvent('DonationRecorded', {
        fundraiserId: 'f-1',
        donationId: 'd-offset',
        amountCents: 777,
        currency: 'USD',
        source: 'qr',
        idempotencyKey: null,
        at: '2025-03-02T01:30:00.000+02:00',
      }),
      { type: 'DonationRecorded', data: { fundraiserId: 'f-1', donationId: 'd-bad', amountCents: -5 } },
    ]);
    await eventStore.appendToStream('charity-c-2', [
      newEvent('CharityUpdated', { charityId: 'c-2', name: 'Trees Again, Again', at: '2025-02-01T00:00:00.000Z' }),
    ]);
    await eventStore.appendToStream('scans-p0', [
      scanBeforeCounting({ scanId: 'scan-ghost', fundraiserId: GHOST, at: '2025-03-02T12:00:00.000Z' }),
    ]);
    await caughtUp();
    for (const groupBy of replayGroupings) atCut.set(groupBy, await fromReadModels(readModels, groupBy));
    const head = await eventStore.headPosition();
    cut = (await eventStore.readAll({ after: head - 1 }))[0]!.recordedAt;

    // Stored after the cut: recorded in a later millisecond than anything before it.
    await until(() => Date.now() > cut.getTime(), 'a millisecond past the cut');
    await createHistory(eventStore, 2).activity(10_000);
    await eventStore.appendToStream('fundraiser-f-6', [
      newEvent('FundraiserCreated', {
        fundraiserId: 'f-6',
        userId: 'u-3',
        charityId: 'c-2',
        shirtId: 's-1',
        name: "Cy's ride",
        at: '2025-03-03T00:00:00.000Z',
      }),
    ]);
    await eventStore.appendToStream('scans-p1', [
      scanBeforeCounting({ scanId: 'scan-f6', fundraiserId: 'f-6', at: '2025-03-03T10:00:00.000Z' }),
    ]);
    await caughtUp();
  });

  afterAll(async () => {
    await Promise.all(runners.map((runner) => runner.stop()));
    await dispose();
  });

  it.each(replayGroupings)('by %s: the totals equal the live read models, per group and overall', async (groupBy) => {
    const expected = await fromReadModels(readModels, groupBy);
    const actual = await replayed(eventStore, groupBy);
    expect(actual).toEqual(expected);
    // About 99,000 scan requests, of which the history counts about seven in ten.
    expect(actual.total.scans).toBeGreaterThan(60_000);
    expect(actual.rows.length).toBeGreaterThan(1);
  });

  it('lists a fundraiser without figures, names groups as of now, and skips the unreadable event', async () => {
    const [byFundraiser, byCharity] = await Promise.all([
      replayDonations({ eventStore, groupBy: 'fundraiser' }),
      replayDonations({ eventStore, groupBy: 'charity' }),
    ]);
    expect(byFundraiser.rows.find((row) => row.key === 'f-5')).toMatchObject({
      scans: 0,
      donations: 0,
      fundraisers: 1,
    });
    expect(byCharity.rows.find((row) => row.key === 'c-2')?.name).toBe('Trees Again, Again');
    expect(byCharity.rows.find((row) => row.key === '')).toMatchObject({ name: null, scans: 1, fundraisers: 1 });
    expect([byFundraiser.unreadable, byCharity.unreadable]).toEqual([1, 1]);
  });

  it.each(replayGroupings)(
    'by %s with --as-of: the figures as the read models showed them at that moment',
    async (groupBy) => {
      const actual = await replayed(eventStore, groupBy, { asOf: cut.getTime() });
      expect(actual).toEqual(atCut.get(groupBy));
      expect(actual).not.toEqual(await fromReadModels(readModels, groupBy));
    },
  );

  it.each(replayGroupings)(
    'by %s from one day to another: the read models’ per-day series over those days',
    async (groupBy) => {
      const days = { from: '2025-03-02', to: '2025-03-03' };
      const window = { from: Date.parse(`${days.from}T00:00:00.000Z`), to: Date.parse(`${days.to}T23:59:59.999Z`) };
      const actual = await replayed(eventStore, groupBy, window);
      expect(actual).toEqual(await fromReadModels(readModels, groupBy, days));
      expect(actual.total.scans).toBeLessThan((await replayed(eventStore, groupBy)).total.scans);
    },
  );
});

describe('replayDonations on a small log', () => {
  let eventStore: EventStore;
  let dispose: () => Promise<void>;

  beforeAll(async () => {
    ({ eventStore, dispose } = await openTempEventStore());
    await eventStore.appendToStream('fundraiser-early', [
      newEvent('FundraiserCreated', {
        fundraiserId: 'early',
        userId: 'u-1',
        charityId: 'c-1',
        shirtId: 's-1',
        name: 'Early',
        at: '2025-01-01T00:00:00.000Z',
      }),
    ]);
    await eventStore.appendToStream('fundraiser-late', [
      newEvent('FundraiserCreated', {
        fundraiserId: 'late',
        userId: 'u-1',
        charityId: 'c-1',
        shirtId: 's-1',
        name: 'Late',
        at: '2025-03-10T00:00:00.000Z',
      }),
    ]);
    const scans = Array.from({ length: 10 }, (_, i) =>
      scanBeforeCounting({
        scanId: `s-${i}`,
        fundraiserId: 'early',
        at: `2025-03-0${1 + (i % 3)}T08:00:00.000Z`,
      }),
    );
    await eventStore.appendToStream('scans-p0', scans);
  });
  afterAll(() => dispose());

  it('stops at the head it started from: events appended meanwhile wait for the next run', async () => {
    const head = await eventStore.headPosition();
    let appended = false;
    // Appended once the replay has taken the head, before it reads its first page.
    const appendingMeanwhile: EventStore = {
      ...eventStore,
      async readAll(options) {
        if (!appended) {
          appended = true;
          await eventStore.appendToStream('scans-p1', [
            scanBeforeCounting({ scanId: 'meanwhile', fundraiserId: 'early', at: '2025-03-01T09:00:00.000Z' }),
          ]);
        }
        return eventStore.readAll(options);
      },
    };
    const progress: { position: number; head: number }[] = [];
    const result = await replayDonations({
      eventStore: appendingMeanwhile,
      groupBy: 'fundraiser',
      pageSize: 3,
      onProgress: ({ position, head: until }) => progress.push({ position, head: until }),
    });
    expect(appended).toBe(true);
    expect(result.total.scans).toBe(10);
    expect(result.eventsRead).toBe(12);
    expect(progress.map((step) => step.head)).toEqual(progress.map(() => head));
    expect(progress.map((step) => step.position)).toEqual([3, 6, 9, head]);
    expect((await replayDonations({ eventStore, groupBy: 'fundraiser' })).total.scans).toBe(11);
  });

  it('lists the fundraisers that existed by the end of the window; by day, those active that day', async () => {
    const window = { to: Date.parse('2025-03-02T23:59:59.999Z') };
    const byFundraiser = await replayDonations({ eventStore, groupBy: 'fundraiser', window });
    expect(byFundraiser.rows.map((row) => [row.key, row.scans])).toEqual([['early', 8]]);
    const byDay = await replayDonations({ eventStore, groupBy: 'day', window });
    expect(byDay.rows.map((row) => [row.key, row.scans, row.fundraisers])).toEqual([
      ['2025-03-01', 5, 1],
      ['2025-03-02', 3, 1],
    ]);
    expect(byDay.total.fundraisers).toBe(1);
    const everything = await replayDonations({ eventStore, groupBy: 'charity' });
    expect(everything.rows).toEqual([{ key: 'c-1', name: null, scans: 11, donations: 0, ...money(0), fundraisers: 2 }]);
  });
});
