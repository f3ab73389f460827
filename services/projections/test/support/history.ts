import {
  type DailyStats,
  type EventData,
  type EventType,
  type FundraiserStats,
  type Shirt,
  type UserStats,
  type WaitlistStats,
  eventMetadata,
  REPORT_AWAITS_MS,
  SCHEMA_VERSION,
} from '@qrshirt/contracts';
import type { EventStore, NewEvent } from '@qrshirt/core';
import { seededRandom } from '@qrshirt/test-support';

const DAY_MS = 86_400_000;
const FIRST_DAY = Date.UTC(2025, 2, 1);
const DAYS = 5;
/** When the read models are read: the end of the history's last day, whose reports alone await confirmation. */
export const HISTORY_NOW = new Date(FIRST_DAY + DAYS * DAY_MS);
/** The first instant a report still awaits confirmation at HISTORY_NOW: 24 h before it. */
const AWAITING_SINCE = HISTORY_NOW.getTime() - REPORT_AWAITS_MS;
/** Events per group of appends: big enough to be quick, small enough to interleave types. */
const CHUNK = 250;

const shirts = [
  { shirtId: 's-1', name: 'Clean Water Tee', priceCents: 2500, sizes: ['S', 'M', 'L'] },
  { shirtId: 's-2', name: 'Forest Hoodie', priceCents: 4999, sizes: ['M', 'L'] },
];
export const charities = [
  { charityId: 'c-1', name: 'Water Now' },
  { charityId: 'c-2', name: 'Trees Again' },
];
const users = [
  { userId: 'u-1', email: 'ada@example.com', displayName: 'Ada' },
  { userId: 'u-2', email: 'bo@example.com', displayName: 'Bo' },
];
/** Created a day apart, so each owner's list has one order. */
export const fundraisers = [
  { fundraiserId: 'f-1', userId: 'u-1', shirtId: 's-1', charityId: 'c-1', name: "Ada's run" },
  { fundraiserId: 'f-2', userId: 'u-1', shirtId: 's-2', charityId: 'c-2', name: "Ada's hike" },
  { fundraiserId: 'f-3', userId: 'u-2', shirtId: 's-1', charityId: 'c-2', name: "Bo's swim" },
  { fundraiserId: 'f-4', userId: 'u-2', shirtId: 's-2', charityId: 'c-1', name: "Bo's climb" },
].map((fundraiser, index) => ({ ...fundraiser, at: new Date(FIRST_DAY - (10 - index) * DAY_MS).toISOString() }));
const waitlist = [
  { entryId: 'w-1', shirtId: 's-1', size: 'M', charityId: 'c-1' },
  { entryId: 'w-2', shirtId: 's-1', size: 'L', charityId: 'c-2' },
  { entryId: 'w-3', shirtId: 's-2', size: 'M', charityId: 'c-1' },
];

export const fundraiserIds = fundraisers.map((fundraiser) => fundraiser.fundraiserId);
export const userIds = users.map((user) => user.userId);

export function newEvent<T extends EventType>(type: T, data: EventData<T>): NewEvent {
  return { type, data, metadata: eventMetadata(type) };
}

/** A scan as stored before scans were counted (version 1: no hashes, no decision): it reads as counted. */
export function scanBeforeCounting(data: { scanId: string; fundraiserId: string; at: string }): NewEvent {
  return { type: 'ScanRecorded', data, metadata: { [SCHEMA_VERSION]: 1 } };
}

interface Figures {
  /** Counted scans. */
  scans: number;
  scanRequests: number;
  donations: number;
  amountCents: number;
}
const noFigures = (): Figures => ({ scans: 0, scanRequests: 0, donations: 0, amountCents: 0 });

type Activity = { stream: string; event: NewEvent }[];

/**
 * Writes a realistic history (catalogue, users, fundraisers, waitlist, then scans and donations
 * spread over days) through the event store, and keeps the figures the read models must show.
 * Figures count an event only once its append has succeeded.
 */
export function createHistory(eventStore: EventStore, seed = 1) {
  const random = seededRandom(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const totals = new Map(fundraiserIds.map((id) => [id, noFigures()]));
  /** Cents reported and not confirmed in the history's last 24 h, per fundraiser. */
  const reported = new Map(fundraiserIds.map((id) => [id, 0]));
  /** Test money confirmed, per fundraiser: never in the figures above. */
  const testMoney = new Map(fundraiserIds.map((id) => [id, { donations: 0, cents: 0 }]));
  const daily = new Map(fundraiserIds.map((id) => [id, new Map<string, Figures>()]));
  let serial = 0;

  async function appendGrouped(events: { stream: string; event: NewEvent }[]): Promise<void> {
    const byStream = new Map<string, NewEvent[]>();
    for (const { stream, event } of events) byStream.set(stream, [...(byStream.get(stream) ?? []), event]);
    await Promise.all([...byStream].map(([stream, batch]) => eventStore.appendToStream(stream, batch)));
  }

  function count(fundraiserId: string, at: string, change: Figures): void {
    const perDay = daily.get(fundraiserId)!;
    const day = at.slice(0, 10);
    if (!perDay.has(day)) perDay.set(day, noFigures());
    for (const figures of [totals.get(fundraiserId)!, perDay.get(day)!]) {
      figures.scans += change.scans;
      figures.scanRequests += change.scanRequests;
      figures.donations += change.donations;
      figures.amountCents += change.amountCents;
    }
  }

  /** One donation of the kind `draw` (0 to 1) picks, with the figures it must move. */
  function donation(
    draw: number,
    { id, fundraiserId, at, amountCents }: { id: string; fundraiserId: string; at: string; amountCents: number },
  ) {
    const reportId = `r-${id}`;
    const donationId = `pi_${id}`;
    const money = { currency: 'USD' as const };
    const report = (confirmedBy: string | null) => ({
      stream: `donation-report-${reportId}`,
      event: newEvent('DonationReported', {
        reportId,
        fundraiserId,
        amountCents,
        ...money,
        source: 'widget',
        idempotencyKey: null,
        confirmedBy,
        at,
      }),
    });
    const confirmation = (withReport: boolean, live?: boolean) => ({
      stream: `processor-donation-${donationId}`,
      event: newEvent('DonationConfirmed', {
        donationId,
        fundraiserId,
        amountCents,
        ...money,
        reportId: withReport ? reportId : null,
        ...(live !== undefined && { live }),
        at,
      }),
    });
    const confirmed = { scans: 0, scanRequests: 0, donations: 1, amountCents };
    const nothing = noFigures();
    if (draw < 0.3) {
      return {
        appends: [
          {
            stream: `fundraiser-${fundraiserId}`,
            event: newEvent('DonationRecorded', {
              fundraiserId,
              donationId: `d-${id}`,
              amountCents,
              ...money,
              source: 'qr',
              idempotencyKey: null,
              at,
            }),
          },
        ],
        fundraiserId,
        change: confirmed,
        at,
        reportedCents: 0,
        testCents: 0,
      };
    }
    if (draw < 0.5)
      return { appends: [report(null)], fundraiserId, change: nothing, at, reportedCents: amountCents, testCents: 0 };
    if (draw < 0.75) {
      const settled = {
        stream: `donation-report-${reportId}`,
        event: newEvent('DonationReportConfirmed', {
          reportId,
          fundraiserId,
          donationId,
          pendingCents: amountCents,
          at,
        }),
      };
      return {
        appends: [report(null), settled, confirmation(true)],
        fundraiserId,
        change: confirmed,
        at,
        reportedCents: 0,
        testCents: 0,
      };
    }
    if (draw < 0.8) {
      // Stated live, as a processor's webhook says it: the same as saying nothing.
      const live = draw < 0.78 ? undefined : true;
      return {
        appends: [confirmation(false, live)],
        fundraiserId,
        change: confirmed,
        at,
        reportedCents: 0,
        testCents: 0,
      };
    }
    if (draw < 0.9) {
      // Test money: counted beside the figures, never in them.
      return {
        appends: [confirmation(false, false)],
        fundraiserId,
        change: nothing,
        at,
        reportedCents: 0,
        testCents: amountCents,
      };
    }
    // Confirmed, then refunded at once: a refund is booked on its own day, here the same one.
    const refundedAt = at;
    const refund = {
      stream: `processor-donation-${donationId}`,
      event: newEvent('DonationRefunded', {
        donationId,
        fundraiserId,
        amountCents,
        ...money,
        donatedAt: at,
        at: refundedAt,
      }),
    };
    return {
      appends: [confirmation(false), refund],
      fundraiserId,
      // Counted on its day, and taken off it again: the day is listed, with nothing.
      change: nothing,
      at,
      reportedCents: 0,
      testCents: 0,
    };
  }

  return {
    /** Catalogue, users, fundraisers and waitlist entries: what exists before any activity. */
    async seed(): Promise<void> {
      const at = new Date(FIRST_DAY - 30 * DAY_MS).toISOString();
      await appendGrouped([
        ...shirts.map((shirt) => ({
          stream: `shirt-${shirt.shirtId}`,
          event: newEvent('ShirtAdded', { ...shirt, description: `${shirt.name}.`, images: [], at }),
        })),
        ...charities.map((charity) => ({
          stream: `charity-${charity.charityId}`,
          event: newEvent('CharityCreated', {
            ...charity,
            mission: 'Help.',
            website_url: 'https://example.org/',
            createdBy: null,
            status: 'approved',
            at,
          }),
        })),
        ...users.map((user) => ({
          stream: `user-${user.userId}`,
          event: newEvent('UserRegistered', { ...user, photoURL: null, method: 'password', at }),
        })),
        ...fundraisers.map((fundraiser) => ({
          stream: `fundraiser-${fundraiser.fundraiserId}`,
          event: newEvent('FundraiserCreated', fundraiser),
        })),
        ...waitlist.map((entry) => ({
          stream: `waitlist-${entry.shirtId}`,
          event: newEvent('WaitlistJoined', { ...entry, name: 'Cy', email: 'cy@example.com', at }),
        })),
      ]);
    },

    /**
     * `events` scans and donations (about one in ten) over the history's days; about one scan
     * event in ten is a writer's tally. Donations come in
     * every kind a log holds: reports confirmed by the processor, reports never confirmed,
     * confirmations without a report, test money, refunded ones, and DonationRecorded of logs written before
     * confirmations existed (which count as confirmed).
     */
    async activity(events: number): Promise<void> {
      for (let done = 0; done < events; done += CHUNK) {
        const chunk: {
          appends: Activity;
          fundraiserId: string;
          change: Figures;
          at: string;
          reportedCents: number;
          testCents: number;
        }[] = [];
        for (let i = 0; i < Math.min(CHUNK, events - done); i++) {
          const fundraiserId = pick(fundraiserIds);
          const at = new Date(FIRST_DAY + Math.floor(random() * DAYS * DAY_MS)).toISOString();
          const id = `${seed}-${++serial}`;
          const kind = random();
          if (kind < 0.1) {
            const amountCents = 100 + Math.floor(random() * 10_000);
            chunk.push(donation(kind / 0.1, { id, fundraiserId, at, amountCents }));
          } else if (kind < 0.19) {
            // Past the log's cap, the writer tallied a few scans of one fundraiser and day.
            const requests = 1 + Math.floor(random() * 4);
            const counted = Array.from({ length: Math.floor(random() * (requests + 1)) }, (_, n) => ({
              at,
              visitorHash: `t-${serial}-${n}`,
              addressHash: `t-${serial}`,
            }));
            chunk.push({
              appends: [
                {
                  stream: `scans-p${serial % 3}`,
                  event: newEvent('ScansTallied', { fundraiserId, from: at, at, requests, counted }),
                },
              ],
              fundraiserId,
              change: { scans: counted.length, scanRequests: requests, donations: 0, amountCents: 0 },
              at,
              reportedCents: 0,
              testCents: 0,
            });
          } else {
            // As the scans' writer decided: about one request in four is a repeat or a robot.
            const bot = random() < 0.05;
            const counted = !bot && random() < 0.75;
            const hash = `h-${serial % 50}`;
            chunk.push({
              appends: [
                {
                  stream: `scans-p${serial % 3}`,
                  event: newEvent('ScanRecorded', {
                    scanId: `scan-${id}`,
                    fundraiserId,
                    at,
                    visitorHash: hash,
                    addressHash: hash,
                    bot,
                    counted,
                  }),
                },
              ],
              fundraiserId,
              change: { scans: counted ? 1 : 0, scanRequests: 1, donations: 0, amountCents: 0 },
              at,
              reportedCents: 0,
              testCents: 0,
            });
          }
        }
        await appendGrouped(chunk.flatMap(({ appends }) => appends));
        for (const { fundraiserId, at, change, reportedCents, testCents } of chunk) {
          if (Date.parse(at) >= AWAITING_SINCE) reported.set(fundraiserId, reported.get(fundraiserId)! + reportedCents);
          if (testCents === 0) {
            count(fundraiserId, at, change);
            continue;
          }
          // No day of the series lists test money, not even as a day with nothing.
          const test = testMoney.get(fundraiserId)!;
          test.donations += 1;
          test.cents += testCents;
        }
      }
    },

    /** Scan requests appended so far, counted or not. */
    totalScans(): number {
      return [...totals.values()].reduce((sum, figures) => sum + figures.scanRequests, 0);
    },

    fundraiserStats(fundraiserId: string): FundraiserStats {
      const { scans, scanRequests, donations, amountCents } = totals.get(fundraiserId)!;
      const days: DailyStats[] = [...daily.get(fundraiserId)!]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([date, figures]) => ({
          date,
          scans: figures.scans,
          scanRequests: figures.scanRequests,
          donations: figures.donations,
          amountRaised: figures.amountCents / 100,
        }));
      return {
        scans,
        scanRequests,
        donations,
        amountRaised: amountCents / 100,
        amountReported: reported.get(fundraiserId)! / 100,
        testDonations: testMoney.get(fundraiserId)!.donations,
        testAmountRaised: testMoney.get(fundraiserId)!.cents / 100,
        // These histories never change a fundraiser's charity: all of it is its one charity's.
        byCharity: [
          {
            charityId: fundraisers.find((fundraiser) => fundraiser.fundraiserId === fundraiserId)!.charityId,
            scans,
            donations,
            amountRaised: amountCents / 100,
          },
        ],
        daily: days,
      };
    },

    userStats(userId: string): UserStats {
      const owned = fundraisers.filter((fundraiser) => fundraiser.userId === userId);
      const items = owned.map(({ fundraiserId, name, charityId, at }) => ({
        fundraiserId,
        name,
        charityId,
        at,
        ...totals.get(fundraiserId)!,
        reportedCents: reported.get(fundraiserId)!,
        test: testMoney.get(fundraiserId)!,
      }));
      return {
        totalImpact: items.reduce((sum, item) => sum + item.amountCents, 0) / 100,
        totalReported: items.reduce((sum, item) => sum + item.reportedCents, 0) / 100,
        testAmountRaised: items.reduce((sum, item) => sum + item.test.cents, 0) / 100,
        testDonations: items.reduce((sum, item) => sum + item.test.donations, 0),
        totalScans: items.reduce((sum, item) => sum + item.scans, 0),
        shirtsOwned: items.length,
        fundraiserStats: items.map((item) => ({
          id: item.fundraiserId,
          name: item.name,
          charityId: item.charityId,
          goal: null,
          purchaseDate: item.at,
          scans: item.scans,
          donationsInspired: item.donations,
          amountRaised: item.amountCents / 100,
          amountReported: item.reportedCents / 100,
          testDonations: item.test.donations,
          testAmountRaised: item.test.cents / 100,
        })),
      };
    },

    shirts(): Shirt[] {
      return shirts.map(({ shirtId, name, priceCents, sizes }) => ({
        id: shirtId,
        name,
        description: `${name}.`,
        price: priceCents / 100,
        sizes,
        images: [],
      }));
    },

    waitlistStats(): WaitlistStats {
      const tally = (key: (entry: (typeof waitlist)[number]) => string, entries = waitlist) =>
        entries.reduce<Record<string, number>>((counts, entry) => {
          counts[key(entry)] = (counts[key(entry)] ?? 0) + 1;
          return counts;
        }, {});
      const byShirt = tally((entry) => entry.shirtId);
      return {
        total: waitlist.length,
        byShirt,
        bySize: tally((entry) => entry.size),
        byCharity: tally((entry) => entry.charityId),
        byShirtAndSize: Object.fromEntries(
          Object.keys(byShirt).map((shirtId) => [
            shirtId,
            tally(
              (entry) => entry.size,
              waitlist.filter((entry) => entry.shirtId === shirtId),
            ),
          ]),
        ),
      };
    },
  };
}
export type History = ReturnType<typeof createHistory>;
