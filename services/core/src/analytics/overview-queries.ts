import type { AdminOverview } from '@qrshirt/contracts';
import { decodeHash } from '../kit/hash-fields';
import { dailySeries } from '../kit/daily-figures';
import type { RankedDetails } from '../ports/ranked-details';
import type { ReadModelStore } from '../ports/read-model-store';
import { overviewKeys, overviewProjector } from './overview-projector';

const dollars = (cents: number) => cents / 100;

/** Highest first; equal amounts by id, so the order is stable between calls. */
const byAmount = (a: { id: string; cents: number }, b: { id: string; cents: number }) =>
  b.cents - a.cents || a.id.localeCompare(b.id);

/**
 * The admin overview, from the overview projection, with names from the fundraisers and the
 * catalogue (`ranked`) for the few fundraisers and charities it ranks.
 */
export function createOverviewQueries(store: ReadModelStore, ranked: RankedDetails) {
  const overview = store.projection(overviewProjector.name);

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
      const fundraisers = await ranked.fundraisers(rankedFundraisers.map(({ id }) => id));

      const charityOfFundraiser = new Map(Object.entries(decodeHash(charityOf) as Record<string, string>));
      const charities = new Map<string, { id: string; cents: number; fundraisers: number }>();
      for (const [fundraiserId, id] of charityOfFundraiser) {
        const charity = charities.get(id) ?? { id, cents: 0, fundraisers: 0 };
        charity.cents += Number(raised[fundraiserId] ?? 0);
        charity.fundraisers += 1;
        charities.set(id, charity);
      }
      const rankedCharities = [...charities.values()].sort(byAmount).slice(0, top);
      const charityNames = await ranked.charityNames(rankedCharities.map(({ id }) => id));

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
          const { name, userId, scans, donations } = fundraisers[index]!;
          return {
            id,
            name,
            userId,
            charityId: charityOfFundraiser.get(id) ?? '',
            scans,
            donations,
            amountRaised: dollars(cents),
          };
        }),
        topCharities: rankedCharities.map(({ id, cents, fundraisers: count }, index) => ({
          id,
          name: charityNames[index] ?? null,
          fundraisers: count,
          amountRaised: dollars(cents),
        })),
      };
    },
  };
}
export type OverviewQueries = ReturnType<typeof createOverviewQueries>;
