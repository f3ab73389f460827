import type { AdminOverview, DailyStats } from '@qrshirt/contracts';
import {
  type EventStore,
  fundraisersProjector,
  catalogProjector,
  overviewProjector,
  createCatalogQueries,
  createFundraiserQueries,
  createOverviewQueries,
} from '@qrshirt/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WAIT_MS } from '@qrshirt/test-support';
import { describeWithRedis } from '@qrshirt/test-support/vitest';
import { type ProjectionRunner, createProjectionRunner } from '../src/runner';
import { openTempEventStore } from './support/event-store';
import { charities, createHistory, fundraisers, type History, HISTORY_NOW } from './support/history';
import { type BackendKind, type ReadModelBackend, memoryBackend, redisBackend } from './support/read-model-backends';
import { createRecordingLog } from './support/recording-log';

/** The overview the generated history must produce, summed from its per-fundraiser figures. */
function expectedOverview(history: History, top: number): AdminOverview {
  const figures = fundraisers.map((fundraiser) => ({
    ...fundraiser,
    stats: history.fundraiserStats(fundraiser.fundraiserId),
  }));
  const days = new Map<string, DailyStats>();
  for (const { stats } of figures) {
    for (const day of stats.daily) {
      const sum = days.get(day.date) ?? { date: day.date, scans: 0, scanRequests: 0, donations: 0, amountRaised: 0 };
      days.set(day.date, {
        date: day.date,
        scans: sum.scans + day.scans,
        scanRequests: sum.scanRequests + day.scanRequests,
        donations: sum.donations + day.donations,
        amountRaised: (Math.round(sum.amountRaised * 100) + Math.round(day.amountRaised * 100)) / 100,
      });
    }
  }
  const cents = (amount: number) => Math.round(amount * 100);
  const byCharity = charities.map(({ charityId, name }) => {
    const own = figures.filter((fundraiser) => fundraiser.charityId === charityId);
    return {
      id: charityId,
      name,
      fundraisers: own.length,
      amountRaised: own.reduce((sum, item) => sum + cents(item.stats.amountRaised), 0) / 100,
    };
  });
  return {
    totals: {
      scans: figures.reduce((sum, item) => sum + item.stats.scans, 0),
      scanRequests: figures.reduce((sum, item) => sum + item.stats.scanRequests, 0),
      donations: figures.reduce((sum, item) => sum + item.stats.donations, 0),
      amountRaised: figures.reduce((sum, item) => sum + cents(item.stats.amountRaised), 0) / 100,
      testDonations: figures.reduce((sum, item) => sum + item.stats.testDonations, 0),
      testAmountRaised: figures.reduce((sum, item) => sum + cents(item.stats.testAmountRaised), 0) / 100,
      fundraisers: fundraisers.length,
      users: 2,
    },
    daily: [...days.values()].sort((a, b) => a.date.localeCompare(b.date)),
    topFundraisers: figures
      .filter((item) => item.stats.donations > 0)
      .sort((a, b) => b.stats.amountRaised - a.stats.amountRaised)
      .slice(0, top)
      .map(({ fundraiserId, name, userId, charityId, stats }) => ({
        id: fundraiserId,
        name,
        userId,
        charityId,
        scans: stats.scans,
        donations: stats.donations,
        amountRaised: stats.amountRaised,
      })),
    topCharities: byCharity.sort((a, b) => b.amountRaised - a.amountRaised).slice(0, top),
  };
}

function describeOverview(kind: BackendKind): void {
  describe(`the admin overview on the ${kind.name} read-model store`, () => {
    let eventStore: EventStore;
    let dispose: () => Promise<void>;
    let backend: ReadModelBackend;
    let runners: ProjectionRunner[];

    beforeEach(async () => {
      ({ eventStore, dispose } = await openTempEventStore());
      backend = kind.open();
      runners = [];
    });
    afterEach(async () => {
      await Promise.all(runners.map((runner) => runner.stop()));
      await dispose();
      await backend.close();
    });

    it('sums every fundraiser per day and ranks fundraisers and charities by amount raised', async () => {
      const history = createHistory(eventStore, 3);
      await history.seed();
      await history.activity(3000);
      const store = backend.connect();
      const recorded = createRecordingLog();
      runners = [overviewProjector, fundraisersProjector, catalogProjector].map((projector) =>
        createProjectionRunner({ eventStore, store, projector, log: recorded.log, batchSize: 400 }),
      );
      for (const runner of runners) runner.start();
      await Promise.all(runners.map((runner) => runner.waitUntilCaughtUp(WAIT_MS)));

      const [fundraisers, catalog] = [createFundraiserQueries(store, () => HISTORY_NOW), createCatalogQueries(store)];
      const overview = createOverviewQueries(store, {
        fundraisers: (ids) => fundraisers.summaries(ids),
        charityNames: (ids) => catalog.charityNames(ids),
      });
      expect(await overview.getOverview(10)).toEqual(expectedOverview(history, 10));
      const topTwo = await overview.getOverview(2);
      expect(topTwo.topFundraisers).toEqual(expectedOverview(history, 2).topFundraisers);
      expect(topTwo.topCharities).toHaveLength(2);
      expect(recorded.errors).toEqual([]);
    });
  });
}

describeOverview(memoryBackend);
describeWithRedis('the admin overview against a real Redis', (redis) => describeOverview(redisBackend(redis)));
