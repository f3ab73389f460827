import {
  type AdminFunnel,
  type AdminFunnelQuery,
  DEFAULT_FUNNEL_DAYS,
  type FunnelSteps,
  MAX_FUNNEL_DAYS,
} from '@qrshirt/contracts';
import { DomainError } from '../kit/decider';
import type { ReadModelStore } from '../ports/read-model-store';
import { ALL_SHIRTS, type FunnelStep, funnelKeys, funnelProjector } from './funnel-projector';

const DAY_MS = 86_400_000;
const dayString = (time: number) => new Date(time).toISOString().slice(0, 10);
const startOf = (day: string) => Date.parse(`${day}T00:00:00Z`);

type Tally = Record<FunnelStep, number>;

const emptyTally = (): Tally => ({
  pageViews: 0,
  shirtClicks: 0,
  waitlistJoins: 0,
  fulfilled: 0,
  claimed: 0,
  scans: 0,
  donations: 0,
  amountCents: 0,
});

function steps({ amountCents, ...counts }: Tally): FunnelSteps {
  return { ...counts, amountRaised: amountCents / 100 };
}

function add(tally: Tally, step: string, value: string): void {
  if (step in tally) tally[step as FunnelStep] += Number(value);
}

/** `<id>|<step>`; the id is what comes before the last `|`, as a clicked shirt's id is the client's text. */
function splitField(field: string): [string, string] {
  const bar = field.lastIndexOf('|');
  return [field.slice(0, bar), field.slice(bar + 1)];
}

/** The days asked for: `to` defaults to today, `from` to 30 days before it; at most 366, never backwards. */
export function funnelRange({ from, to }: Pick<AdminFunnelQuery, 'from' | 'to'>, now: Date): string[] {
  const last = to ?? dayString(now.getTime());
  const first = from ?? dayString(startOf(last) - (DEFAULT_FUNNEL_DAYS - 1) * DAY_MS);
  const count = Math.round((startOf(last) - startOf(first)) / DAY_MS) + 1;
  if (count < 1) throw new DomainError('validation', 'from must not be after to');
  if (count > MAX_FUNNEL_DAYS) {
    throw new DomainError('validation', `The range must be at most ${MAX_FUNNEL_DAYS} days`);
  }
  return Array.from({ length: count }, (_, index) => dayString(startOf(first) + index * DAY_MS));
}

export function createFunnelQueries(store: ReadModelStore) {
  const funnel = store.projection(funnelProjector.name);

  return {
    async getFunnel(query: AdminFunnelQuery, now: Date): Promise<AdminFunnel> {
      const days = funnelRange(query, now);
      const shirtId = query.shirtId ?? null;
      const [shirtOf = {}, ...hashes] = await funnel.hgetallMany([
        funnelKeys.shirtOf,
        ...days.flatMap((day) => [funnelKeys.day(day), funnelKeys.fundraiserDay(day)]),
      ]);
      const totals = emptyTally();
      const perShirt = new Map<string, Tally>();
      const shirtTally = (id: string) => {
        const tally = perShirt.get(id) ?? emptyTally();
        perShirt.set(id, tally);
        return tally;
      };
      const daily = days.map((date, index) => {
        const day = emptyTally();
        for (const [field, value] of Object.entries(hashes[2 * index] ?? {})) {
          const [id, step] = splitField(field);
          if (id === (shirtId ?? ALL_SHIRTS)) add(day, step, value);
          if (id !== ALL_SHIRTS) add(shirtTally(id), step, value);
        }
        for (const [field, value] of Object.entries(hashes[2 * index + 1] ?? {})) {
          const [fundraiserId, step] = splitField(field);
          const shirt = shirtOf[fundraiserId];
          if (shirt === undefined) continue;
          // Every shirt's total of these steps is already in the day's `*` fields.
          if (shirtId !== null && shirt === shirtId) add(day, step, value);
          add(shirtTally(shirt), step, value);
        }
        for (const step of Object.keys(totals) as FunnelStep[]) totals[step] += day[step];
        return { date, ...steps(day) };
      });
      const shirts = [...perShirt.entries()]
        .map(([id, tally]) => ({ shirtId: id, ...steps(tally) }))
        .sort((a, b) => b.pageViews - a.pageViews || b.scans - a.scans || a.shirtId.localeCompare(b.shirtId));
      return { from: days[0]!, to: days.at(-1)!, shirtId, totals: steps(totals), daily, shirts };
    },
  };
}
export type FunnelQueries = ReturnType<typeof createFunnelQueries>;
