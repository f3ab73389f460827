import { type ConfirmedChange, confirmedChange, type DomainEvent, type EventOf, scanChange } from '@qrshirt/contracts';
import { dayOf } from '@qrshirt/core';
import type { ReplayWindow } from './replay-window';

export const replayGroupings = ['day', 'charity', 'fundraiser', 'shirt'] as const;
export type ReplayGroupBy = (typeof replayGroupings)[number];

export interface ReplayFigures {
  scans: number;
  donations: number;
  /** Money raised: payments less refunds and disputes lost. Integer cents, as stored: dollars only when written out. */
  amountCents: number;
  /** Payments, each on its day. */
  grossCents: number;
  /** Refunds, each on its day, less those that failed (on the day they failed). */
  refundedCents: number;
  /** Disputed money withdrawn, each on its day, less what won disputes gave back (on that day). */
  disputedCents: number;
  /** The processor's fees (Stripe's processing and dispute fees), each on its balance transaction's day. */
  feesCents: number;
  /** The platform's share (Stripe's application fees), each on its day. */
  platformFeesCents: number;
  /** Money raised less the processor's fees, as the processor's balance counts what the payments left. */
  netCents: number;
  /**
   * By day: fundraisers with a scan or donation counted that day. Otherwise: fundraisers that
   * existed in the window (created by its end) or have figures in it; by charity, one that changed
   * charity counts under each it raised for.
   */
  fundraisers: number;
}

export interface ReplayRow extends ReplayFigures {
  /**
   * The day (UTC), charity id, shirt id or fundraiser id. By charity or shirt, '' gathers the
   * figures of fundraiser ids the log never created (the projector counts those too).
   */
  key: string;
  /** The charity's, shirt's or fundraiser's name as of the cut; null by day or when unknown. */
  name: string | null;
  /** By fundraiser: its charity and shirt; null when the log never created it. */
  charityId?: string | null;
  shirtId?: string | null;
}

export interface ReplayResult {
  groupBy: ReplayGroupBy;
  /** Sorted by key. */
  rows: ReplayRow[];
  /** By day, `fundraisers` counts each fundraiser once however many days it was active. */
  total: ReplayFigures;
  /** Events of the replayed types read up to the head, including those after `asOf`. */
  eventsRead: number;
  /** Events that no longer read as their contract says, skipped as the projectors skip them. */
  unreadable: number;
}

type Figures = Omit<ReplayFigures, 'fundraisers'>;

const figureNames = [
  'scans',
  'donations',
  'amountCents',
  'grossCents',
  'refundedCents',
  'disputedCents',
  'feesCents',
  'platformFeesCents',
  'netCents',
] as const;

const noFigures = (): Figures => ({
  scans: 0,
  donations: 0,
  amountCents: 0,
  grossCents: 0,
  refundedCents: 0,
  disputedCents: 0,
  feesCents: 0,
  platformFeesCents: 0,
  netCents: 0,
});

/** Adds `b` into `a`. */
function addInto(a: Figures, b: Partial<Figures>): void {
  for (const name of figureNames) a[name] += b[name] ?? 0;
}

const isEmpty = (figures: Figures): boolean => figureNames.every((name) => figures[name] === 0);

interface FundraiserFacts extends Figures {
  name: string | null;
  /** Its charity now; what it raised under earlier ones is in `charityChanges`. */
  charityId: string | null;
  shirtId: string | null;
  /** Created by the end of the window: listed even without figures. */
  existed: boolean;
  /** At each change of charity, in log order: the charity it left and its figures up to then. */
  charityChanges: (Figures & { charityId: string })[];
  /**
   * By charity, money whose events name the charity it was given to (the ledger's): it stays
   * with that charity whatever the fundraiser points to when it moves.
   */
  given: Map<string, Figures>;
}

interface DayFacts extends Figures {
  /** The fundraisers counted that day, by their number in `fundraiserNumbers`. */
  active: Set<number>;
}

const plus = (a: Figures, b: Figures): Figures => {
  const sum = { ...a };
  addInto(sum, b);
  return sum;
};

const minus = (a: Figures, b: Figures): Figures =>
  Object.fromEntries(figureNames.map((name) => [name, a[name] - b[name]])) as Figures;

/** What a confirmed money change adds to each figure: the money raised and net, and the movement's own column. */
function moneyFigures(change: ConfirmedChange): Partial<Figures> {
  const { donations, amountCents, movement } = change;
  const raised = { donations, amountCents, netCents: amountCents };
  switch (movement) {
    case 'payment':
      return { ...raised, grossCents: amountCents };
    case 'refund':
      return { ...raised, refundedCents: -amountCents };
    case 'dispute':
      return { ...raised, disputedCents: -amountCents };
  }
}

/** A fee is not money raised: the processor's comes off net, the platform's share is a column of its own. */
function feeFigures({ to, amountCents }: EventOf<'DonationFeeCharged'>['data']): Partial<Figures> {
  return to === 'processor' ? { feesCents: amountCents, netCents: -amountCents } : { platformFeesCents: amountCents };
}

/**
 * The UTC day of an ISO instant as a number (2025-01-31 is 20250131), without parsing the ones
 * already in UTC (nearly all). Per event, a number keys a Map without making and hashing a new
 * string: by day, that and numbering the fundraisers took a tenth off a replay (issue 33).
 */
function utcDayNumber(at: string): number {
  const day = at.endsWith('Z') ? at : dayOf(at);
  let number = 0;
  for (let i = 0; i < 10; i++) if (i !== 4 && i !== 7) number = number * 10 + day.charCodeAt(i) - 48;
  return number;
}

const dayOfNumber = (number: number): string => {
  const digits = String(number).padStart(8, '0');
  return `${digits.slice(0, 4)}-${digits.slice(4, 6)}-${digits.slice(6)}`;
};

/**
 * Folds replayed events into figures. Facts are kept per fundraiser (or per day) and grouped only
 * at the end, so a fundraiser's charity and shirt apply whatever order the events came in.
 */
export function createReplayTally(groupBy: ReplayGroupBy, window: ReplayWindow) {
  const from = window.from ?? Number.NEGATIVE_INFINITY;
  const to = window.to ?? Number.POSITIVE_INFINITY;
  const bounded = window.from !== undefined || window.to !== undefined;
  const fundraisers = new Map<string, FundraiserFacts>();
  const days = new Map<number, DayFacts>();
  /** By day, each fundraiser's number, so a day's set of them holds numbers rather than ids. */
  const fundraiserNumbers = new Map<string, number>();
  const charityNames = new Map<string, string>();
  const shirtNames = new Map<string, string>();

  function fundraiser(id: string): FundraiserFacts {
    let facts = fundraisers.get(id);
    if (!facts) {
      facts = {
        name: null,
        charityId: null,
        shirtId: null,
        existed: false,
        ...noFigures(),
        charityChanges: [],
        given: new Map(),
      };
      fundraisers.set(id, facts);
    }
    return facts;
  }

  function count(fundraiserId: string, at: string, change: Partial<Figures>, charityId?: string): void {
    if (bounded) {
      const time = Date.parse(at);
      if (time < from || time > to) return;
    }
    let figures: Figures;
    if (groupBy === 'charity' && charityId !== undefined) {
      const { given } = fundraiser(fundraiserId);
      figures = given.get(charityId) ?? noFigures();
      given.set(charityId, figures);
    } else if (groupBy === 'day') {
      const day = utcDayNumber(at);
      let facts = days.get(day);
      if (!facts) {
        facts = { ...noFigures(), active: new Set() };
        days.set(day, facts);
      }
      let number = fundraiserNumbers.get(fundraiserId);
      if (number === undefined) {
        number = fundraiserNumbers.size;
        fundraiserNumbers.set(fundraiserId, number);
      }
      facts.active.add(number);
      figures = facts;
    } else {
      figures = fundraiser(fundraiserId);
    }
    addInto(figures, change);
  }

  function add(event: DomainEvent): void {
    switch (event.type) {
      case 'ScanRecorded':
      case 'ScansTallied': {
        // Counted scans, as the read models count them; a request that did not count is no activity.
        const { fundraiserId, at, counted } = scanChange(event)!;
        if (counted > 0) count(fundraiserId, at, { scans: counted });
        return;
      }
      // Confirmed money only, as the projectors count it, each movement on its own day (and in
      // its own window); reports are not money raised.
      case 'DonationConfirmed':
      case 'DonationRefunded':
      case 'DonationRestored':
      case 'DonationRecorded': {
        const change = confirmedChange(event)!;
        // Live money only: the replay is the payout statement, and test money pays nobody.
        if (change.live) count(change.fundraiserId, change.at, moneyFigures(change), change.charityId);
        return;
      }
      case 'DonationFeeCharged': {
        const { data } = event;
        if (data.live) count(data.fundraiserId, data.at, feeFigures(data), data.charityId);
        return;
      }
      case 'FundraiserCreated': {
        const { fundraiserId, name, charityId, shirtId, at } = event.data;
        if (groupBy === 'day') return;
        const facts = fundraiser(fundraiserId);
        Object.assign(facts, { name, charityId, shirtId, existed: Date.parse(at) <= to });
        return;
      }
      case 'FundraiserCharityChanged': {
        // What counted before the change stays with the charity it left, as the owner's stats keep it.
        if (groupBy === 'day') return;
        const facts = fundraiser(event.data.fundraiserId);
        const figures = Object.fromEntries(figureNames.map((name) => [name, facts[name]])) as Figures;
        facts.charityChanges.push({ charityId: event.data.previousCharityId, ...figures });
        facts.charityId = event.data.charityId;
        return;
      }
      case 'CharityCreated':
      case 'CharityUpdated':
        if (event.data.name !== undefined) charityNames.set(event.data.charityId, event.data.name);
        return;
      case 'ShirtAdded':
      case 'ShirtUpdated':
        if (event.data.name !== undefined) shirtNames.set(event.data.shirtId, event.data.name);
        return;
      default:
        return;
    }
  }

  function listed(): [string, FundraiserFacts][] {
    return [...fundraisers].filter(
      ([, facts]) => facts.existed || facts.scans > 0 || facts.donations > 0 || facts.given.size > 0,
    );
  }

  function rows(): ReplayRow[] {
    switch (groupBy) {
      case 'day':
        return [...days].map(([day, { active, ...figures }]) => ({
          key: dayOfNumber(day),
          name: null,
          ...figures,
          fundraisers: active.size,
        }));
      case 'fundraiser':
        return listed().map(([id, facts]) => ({
          key: id,
          name: facts.name,
          charityId: facts.charityId,
          shirtId: facts.shirtId,
          ...Object.fromEntries(figureNames.map((name) => [name, facts[name]])),
          fundraisers: 1,
        })) as ReplayRow[];
      case 'charity':
      case 'shirt': {
        const names = groupBy === 'charity' ? charityNames : shirtNames;
        const groups = new Map<string, ReplayRow>();
        const add = (key: string, figures: Figures) => {
          let row = groups.get(key);
          if (!row) {
            row = { key, name: names.get(key) ?? null, ...noFigures(), fundraisers: 0 };
            groups.set(key, row);
          }
          addInto(row, figures);
          row.fundraisers += 1;
        };
        for (const [, facts] of listed()) {
          if (groupBy === 'shirt') {
            add(facts.shirtId ?? '', facts);
            continue;
          }
          // A re-pointed fundraiser counts under each charity it raised for: its figures between
          // changes, and the money given to each.
          const perCharity = new Map<string, Figures>();
          const into = (charityId: string, figures: Figures) => {
            const sum = perCharity.get(charityId) ?? noFigures();
            perCharity.set(charityId, plus(sum, figures));
          };
          let before = noFigures();
          for (const change of facts.charityChanges) {
            const figures = minus(change, before);
            if (!isEmpty(figures)) into(change.charityId, figures);
            before = change;
          }
          into(facts.charityId ?? '', minus(facts, before));
          for (const [charityId, figures] of facts.given) into(charityId, figures);
          for (const [charityId, figures] of perCharity) add(charityId, figures);
        }
        return [...groups.values()];
      }
    }
  }

  return {
    add,
    result(): Pick<ReplayResult, 'groupBy' | 'rows' | 'total'> {
      const sorted = rows().sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
      const total: ReplayFigures = { ...noFigures(), fundraisers: 0 };
      for (const row of sorted) {
        addInto(total, row);
        total.fundraisers += row.fundraisers;
      }
      // The fundraisers active on any day: gathered once here rather than in a second set per event.
      if (groupBy === 'day') total.fundraisers = new Set([...days.values()].flatMap(({ active }) => [...active])).size;
      return { groupBy, rows: sorted, total };
    },
  };
}
