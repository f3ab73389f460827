import type { DailyStats, Fundraiser, FundraiserStats, UserStats } from '@qrshirt/contracts';
import { fundraiserKeys, fundraisersProjector } from '../projectors/fundraisers';
import { decodeHash } from '../projectors/hash-fields';
import type { ReadModelStore } from '../store/read-model-store';

export interface FundraiserRecord extends Fundraiser {
  createdAt: string;
}

interface Totals {
  scans: number;
  scanRequests: number;
  donations: number;
  amountCents: number;
  reportedCents: number;
}

const dollars = (cents: number) => cents / 100;

function totalsOf(hash: Record<string, string>): Totals {
  return {
    scans: Number(hash.scans ?? 0),
    scanRequests: Number(hash.scanRequests ?? 0),
    donations: Number(hash.donations ?? 0),
    amountCents: Number(hash.amountCents ?? 0),
    reportedCents: Number(hash.reportedCents ?? 0),
  };
}

/** Per-day hash fields (`<yyyy-mm-dd>|<measure>`) as a series, oldest day first. */
export function dailySeries(hash: Record<string, string>): DailyStats[] {
  const days = new Map<string, DailyStats>();
  for (const [field, value] of Object.entries(hash)) {
    const [date = '', measure] = field.split('|');
    const day = days.get(date) ?? { date, scans: 0, scanRequests: 0, donations: 0, amountRaised: 0 };
    if (measure === 'scans') day.scans = Number(value);
    else if (measure === 'scanRequests') day.scanRequests = Number(value);
    else if (measure === 'donations') day.donations = Number(value);
    else if (measure === 'amountCents') day.amountRaised = dollars(Number(value));
    days.set(date, day);
  }
  return [...days.values()].sort((a, b) => a.date.localeCompare(b.date));
}

export function createFundraiserQueries(store: ReadModelStore) {
  const fundraisers = store.projection(fundraisersProjector.name);

  return {
    async getFundraiser(id: string): Promise<FundraiserRecord | null> {
      const hash = await fundraisers.hgetall(fundraiserKeys.fundraiser(id));
      return Object.keys(hash).length === 0 ? null : (decodeHash(hash) as unknown as FundraiserRecord);
    },

    async getStats(id: string): Promise<FundraiserStats> {
      const [totals = {}, daily = {}] = await fundraisers.hgetallMany([
        fundraiserKeys.totals(id),
        fundraiserKeys.daily(id),
      ]);
      const { scans, scanRequests, donations, amountCents, reportedCents } = totalsOf(totals);
      return {
        scans,
        scanRequests,
        donations,
        amountRaised: dollars(amountCents),
        amountReported: dollars(reportedCents),
        daily: dailySeries(daily),
      };
    },

    /** Spec section 3 fields, composed from each owned fundraiser's totals. */
    async getUserStats(userId: string): Promise<UserStats> {
      const ids = await fundraisers.smembers(fundraiserKeys.ownedBy(userId));
      const hashes = await fundraisers.hgetallMany(
        ids.flatMap((id) => [fundraiserKeys.fundraiser(id), fundraiserKeys.totals(id)]),
      );
      const items = ids.map((id, index) => {
        const record = decodeHash(hashes[2 * index] ?? {}) as Partial<FundraiserRecord>;
        const totals = totalsOf(hashes[2 * index + 1] ?? {});
        return {
          id,
          name: record.name ?? '',
          purchaseDate: record.createdAt ?? '',
          scans: totals.scans,
          donationsInspired: totals.donations,
          amountCents: totals.amountCents,
          reportedCents: totals.reportedCents,
        };
      });
      items.sort((a, b) => a.purchaseDate.localeCompare(b.purchaseDate));
      return {
        totalImpact: dollars(items.reduce((sum, item) => sum + item.amountCents, 0)),
        totalReported: dollars(items.reduce((sum, item) => sum + item.reportedCents, 0)),
        totalScans: items.reduce((sum, item) => sum + item.scans, 0),
        shirtsOwned: items.length,
        fundraiserStats: items.map(({ amountCents, reportedCents, ...item }) => ({
          ...item,
          amountRaised: dollars(amountCents),
          amountReported: dollars(reportedCents),
        })),
      };
    },
  };
}
export type FundraiserQueries = ReturnType<typeof createFundraiserQueries>;
