import type { AdminOverview } from '@qrshirt/contracts';
import { catalogKeys, catalogProjector } from '../catalogue/catalog-projector';
import { fundraiserKeys, fundraisersProjector } from '../fundraisers/fundraisers-projector';
import { decodeHash } from '../kit/hash-fields';
import { dailySeries } from '../fundraisers/fundraiser-queries';
import type { ReadModelStore } from '../ports/read-model-store';
import { overviewKeys, overviewProjector } from './overview-projector';

const dollars = (cents: number) => cents / 100;

/** Highest first; equal amounts by id, so the order is stable between calls. */
const byAmount = (a: { id: string; cents: number }, b: { id: string; cents: number }) =>
  b.cents - a.cents || a.id.localeCompare(b.id);

/**
 * The admin overview, from the overview projection, with names from the fundraisers and catalog
 * projections for the few fundraisers and charities it ranks.
 */
export function createOverviewQueries(store: ReadModelStore) {
  const overview = store.projection(overviewProjector.name);
  const fundraisers = store.projection(fundraisersProjector.name);
  const catalog = store.projection(catalogProjector.name);

  return {
    async getOverview(top: number): Promise<AdminOverview> {
      const [totals = {}, daily = {}, raised = {}, charityOf = {}] = await overview.hgetallMany([
        overviewKeys.totals,
        overviewKeys.daily,
        overviewKeys.raised,
        overviewKeys.charityOf,
      ]);

      const rankedFundraisers = Object.entries(raised)
        .map(([id, cents]) => ({ id, cents: Number(cents) }))
        .sort(byAmount)
        .slice(0, top);
      const records = await fundraisers.hgetallMany(
        rankedFundraisers.flatMap(({ id }) => [fundraiserKeys.fundraiser(id), fundraiserKeys.totals(id)]),
      );

      const charityOfFundraiser = new Map(Object.entries(decodeHash(charityOf) as Record<string, string>));
      const charities = new Map<string, { id: string; cents: number; fundraisers: number }>();
      for (const [fundraiserId, id] of charityOfFundraiser) {
        const charity = charities.get(id) ?? { id, cents: 0, fundraisers: 0 };
        charity.cents += Number(raised[fundraiserId] ?? 0);
        charity.fundraisers += 1;
        charities.set(id, charity);
      }
      const rankedCharities = [...charities.values()].sort(byAmount).slice(0, top);
      const charityHashes = await catalog.hgetallMany(rankedCharities.map(({ id }) => catalogKeys.charity(id)));

      return {
        totals: {
          scans: Number(totals.scans ?? 0),
          scanRequests: Number(totals.scanRequests ?? 0),
          donations: Number(totals.donations ?? 0),
          amountRaised: dollars(Number(totals.amountCents ?? 0)),
          testDonations: Number(totals.testDonations ?? 0),
          testAmountRaised: dollars(Number(totals.testAmountCents ?? 0)),
          fundraisers: Number(totals.fundraisers ?? 0),
          users: Number(totals.users ?? 0),
        },
        daily: dailySeries(daily),
        topFundraisers: rankedFundraisers.map(({ id, cents }, index) => {
          const record = decodeHash(records[2 * index] ?? {}) as { name?: string; userId?: string };
          const figures = records[2 * index + 1] ?? {};
          return {
            id,
            name: record.name ?? '',
            userId: record.userId ?? '',
            charityId: charityOfFundraiser.get(id) ?? '',
            scans: Number(figures.scans ?? 0),
            donations: Number(figures.donations ?? 0),
            amountRaised: dollars(cents),
          };
        }),
        topCharities: rankedCharities.map(({ id, cents, fundraisers: count }, index) => {
          const name = (decodeHash(charityHashes[index] ?? {}) as { name?: string }).name;
          return { id, name: name ?? null, fundraisers: count, amountRaised: dollars(cents) };
        }),
      };
    },
  };
}
export type OverviewQueries = ReturnType<typeof createOverviewQueries>;
