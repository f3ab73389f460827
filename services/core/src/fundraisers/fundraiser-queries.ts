import {
  type CharityFigures,
  type Fundraiser,
  type FundraiserDetails,
  type FundraiserStats,
  REPORT_AWAITS_MS,
  type UserStats,
} from '@qrshirt/contracts';
import { fundraiserKeys, fundraisersProjector } from './fundraisers-projector';
import type { Clock } from '../kit/clock';
import { dailySeries } from '../kit/daily-figures';
import { decodeHash, utcMinuteOf } from '../kit/hash-fields';
import type { RankedFundraiser } from '../ports/ranked-details';
import type { ReadModelStore } from '../ports/read-model-store';

export interface FundraiserRecord extends Fundraiser {
  createdAt: string;
  /** Absent until the owner sets a goal; null once they remove it. */
  goalCents?: number | null;
  /** Absent until it gets the code of its short link. */
  shortCode?: string;
}

/** The fundraiser, its owner among it, with its goal and confirmed money: what the public answer is made from. */
export type FundraiserWithFigures = Fundraiser & Pick<FundraiserDetails, 'goal' | 'amountRaised'>;

interface Totals {
  scans: number;
  scanRequests: number;
  donations: number;
  amountCents: number;
  testDonations: number;
  testAmountCents: number;
}

const dollars = (cents: number) => cents / 100;

function totalsOf(hash: Record<string, string>): Totals {
  return {
    scans: Number(hash.scans ?? 0),
    scanRequests: Number(hash.scanRequests ?? 0),
    donations: Number(hash.donations ?? 0),
    amountCents: Number(hash.amountCents ?? 0),
    testDonations: Number(hash.testDonations ?? 0),
    testAmountCents: Number(hash.testAmountCents ?? 0),
  };
}

interface CharityTally {
  charityId: string;
  scans: number;
  donations: number;
  amountCents: number;
}

/**
 * The closed tallies (in the log's order) and the current charity's, which is what the totals hold
 * beyond the closed ones: that also covers figures projected before tallies per charity existed.
 */
export function figuresByCharity(
  currentCharityId: string,
  totals: Totals,
  closed: readonly CharityTally[],
): CharityFigures[] {
  const current: CharityTally = {
    charityId: currentCharityId,
    scans: totals.scans - closed.reduce((sum, tally) => sum + tally.scans, 0),
    donations: totals.donations - closed.reduce((sum, tally) => sum + tally.donations, 0),
    amountCents: totals.amountCents - closed.reduce((sum, tally) => sum + tally.amountCents, 0),
  };
  // A charity supported twice (left and chosen again) is one line, where it first appeared.
  const byCharity = new Map<string, CharityTally>();
  for (const tally of [...closed, current]) {
    const line = byCharity.get(tally.charityId) ?? {
      charityId: tally.charityId,
      scans: 0,
      donations: 0,
      amountCents: 0,
    };
    line.scans += tally.scans;
    line.donations += tally.donations;
    line.amountCents += tally.amountCents;
    byCharity.set(tally.charityId, line);
  }
  return [...byCharity.values()].map(({ amountCents, ...line }) => ({ ...line, amountRaised: dollars(amountCents) }));
}

/*
 * A report stops awaiting confirmation 24 h after it was made, whatever else happens: that is the
 * clock's doing, not a fact to record. An event for it would need a job to notice each report's
 * 24th hour (in one process of several) and would lag it; the read knows the time. So the
 * projector, which never reads, files each report's cents under its minute, takes them back there
 * when the report is settled, and the read adds up the minutes of the last 24 h: two hashes, the
 * day before and today, of at most 1,441 fields between them.
 */

/** The two days whose hashes hold the last 24 h's reports, and the first minute that still awaits. */
function awaitingWindow(now: Date): { days: [string, string]; since: string } {
  const since = utcMinuteOf(new Date(now.getTime() - REPORT_AWAITS_MS).toISOString());
  return { days: [since.slice(0, 10), utcMinuteOf(now.toISOString()).slice(0, 10)], since };
}

/** The cents of the minutes from `since` on, in the window's two hashes. */
function awaitingCents(
  { days, since }: ReturnType<typeof awaitingWindow>,
  hashes: readonly (Record<string, string> | undefined)[],
): number {
  let cents = 0;
  days.forEach((day, index) => {
    for (const [minute, value] of Object.entries(hashes[index] ?? {})) {
      if (`${day}T${minute}` >= since) cents += Number(value);
    }
  });
  return cents;
}

export function createFundraiserQueries(store: ReadModelStore, clock: Clock) {
  const fundraisers = store.projection(fundraisersProjector.name);

  return {
    async getFundraiser(id: string): Promise<FundraiserRecord | null> {
      const hash = await fundraisers.hgetall(fundraiserKeys.fundraiser(id));
      return Object.keys(hash).length === 0 ? null : (decodeHash(hash) as unknown as FundraiserRecord);
    },

    /** Each fundraiser's name, owner and figures, in the order asked, in one read (the overview's port). */
    async summaries(ids: readonly string[]): Promise<RankedFundraiser[]> {
      const records = await fundraisers.hgetallMany(
        ids.flatMap((id) => [fundraiserKeys.fundraiser(id), fundraiserKeys.totals(id)]),
      );
      return ids.map((_, index) => {
        const record = decodeHash(records[2 * index] ?? {}) as { name?: string; userId?: string };
        const figures = records[2 * index + 1] ?? {};
        return {
          name: record.name ?? '',
          userId: record.userId ?? '',
          scans: Number(figures.scans ?? 0),
          donations: Number(figures.donations ?? 0),
        };
      });
    },

    /** The fundraiser a short link's code names; null when none does (or not projected yet). */
    async getFundraiserIdByShortCode(code: string): Promise<string | null> {
      return fundraisers.get(fundraiserKeys.shortCode(code));
    },

    /** The fundraiser with its goal and confirmed money; null when it is not projected (yet). */
    async getFundraiserDetails(id: string): Promise<FundraiserWithFigures | null> {
      const [hash = {}, totals = {}] = await fundraisers.hgetallMany([
        fundraiserKeys.fundraiser(id),
        fundraiserKeys.totals(id),
      ]);
      if (Object.keys(hash).length === 0) return null;
      const { userId, charityId, shirtId, name, goalCents } = decodeHash(hash) as unknown as FundraiserRecord;
      return {
        id,
        userId,
        charityId,
        shirtId,
        name,
        goal: goalCents == null ? null : dollars(goalCents),
        amountRaised: dollars(totalsOf(totals).amountCents),
      };
    },

    async getStats(id: string): Promise<FundraiserStats> {
      const window = awaitingWindow(clock());
      const [totalsHash = {}, daily = {}, record = {}, changes = {}, ...reported] = await fundraisers.hgetallMany([
        fundraiserKeys.totals(id),
        fundraiserKeys.daily(id),
        fundraiserKeys.fundraiser(id),
        fundraiserKeys.charityChanges(id),
        ...window.days.map((day) => fundraiserKeys.reported(id, day)),
      ]);
      const totals = totalsOf(totalsHash);
      const positions = Object.keys(changes).sort();
      const closedHashes =
        positions.length === 0
          ? []
          : await fundraisers.hgetallMany(positions.map((field) => fundraiserKeys.closedCharity(id, Number(field))));
      const closed = positions.map((field, index) => ({
        ...totalsOf(closedHashes[index] ?? {}),
        charityId: (JSON.parse(changes[field]!) as { charityId: string }).charityId,
      }));
      const charityId = record.charityId === undefined ? '' : (JSON.parse(record.charityId) as string);
      const { scans, scanRequests, donations, amountCents, testDonations, testAmountCents } = totals;
      return {
        scans,
        scanRequests,
        donations,
        amountRaised: dollars(amountCents),
        amountReported: dollars(awaitingCents(window, reported)),
        testDonations,
        testAmountRaised: dollars(testAmountCents),
        byCharity: charityId === '' && closed.length === 0 ? [] : figuresByCharity(charityId, totals, closed),
        daily: dailySeries(daily),
      };
    },

    /** Spec section 3 fields, composed from each owned fundraiser's totals. */
    async getUserStats(userId: string): Promise<UserStats> {
      const ids = await fundraisers.smembers(fundraiserKeys.ownedBy(userId));
      const window = awaitingWindow(clock());
      const keysEach = 2 + window.days.length;
      const hashes = await fundraisers.hgetallMany(
        ids.flatMap((id) => [
          fundraiserKeys.fundraiser(id),
          fundraiserKeys.totals(id),
          ...window.days.map((day) => fundraiserKeys.reported(id, day)),
        ]),
      );
      const items = ids.map((id, index) => {
        const [recordHash = {}, totalsHash = {}, ...reported] = hashes.slice(keysEach * index, keysEach * (index + 1));
        const record = decodeHash(recordHash) as Partial<FundraiserRecord>;
        const totals = totalsOf(totalsHash);
        return {
          id,
          name: record.name ?? '',
          charityId: record.charityId ?? '',
          goal: record.goalCents == null ? null : dollars(record.goalCents),
          purchaseDate: record.createdAt ?? '',
          scans: totals.scans,
          donationsInspired: totals.donations,
          amountCents: totals.amountCents,
          reportedCents: awaitingCents(window, reported),
          testDonations: totals.testDonations,
          testAmountCents: totals.testAmountCents,
        };
      });
      items.sort((a, b) => a.purchaseDate.localeCompare(b.purchaseDate));
      return {
        totalImpact: dollars(items.reduce((sum, item) => sum + item.amountCents, 0)),
        totalReported: dollars(items.reduce((sum, item) => sum + item.reportedCents, 0)),
        testAmountRaised: dollars(items.reduce((sum, item) => sum + item.testAmountCents, 0)),
        testDonations: items.reduce((sum, item) => sum + item.testDonations, 0),
        totalScans: items.reduce((sum, item) => sum + item.scans, 0),
        shirtsOwned: items.length,
        fundraiserStats: items.map(({ amountCents, reportedCents, testAmountCents, ...item }) => ({
          ...item,
          amountRaised: dollars(amountCents),
          amountReported: dollars(reportedCents),
          testAmountRaised: dollars(testAmountCents),
        })),
      };
    },
  };
}
export type FundraiserQueries = ReturnType<typeof createFundraiserQueries>;
