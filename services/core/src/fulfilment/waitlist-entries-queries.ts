import type { EventData, WaitlistEntryStatus } from '@qrshirt/contracts';
import { DomainError } from '../kit/decider';
import type { ReadModelStore } from '../ports/read-model-store';
import { type StoredWaitlistEntry, waitlistEntriesKeys, waitlistEntriesProjector } from './waitlist-entries-projector';

/** Opens sealed names and emails: null once their person was erased (the personal data's `reveal`). */
export type WaitlistEntriesReveal = (values: readonly (string | null)[]) => Promise<(string | null)[]>;

/** An entry with its name and email opened (null once its person was erased), and how far it came. */
export interface WaitlistEntryView {
  position: number;
  entry: EventData<'WaitlistJoined'>;
  status: WaitlistEntryStatus;
  fundraiserId: string | null;
}

export interface WaitlistEntriesPage {
  entries: WaitlistEntryView[];
  /** The `after` of the next page; null on the last. */
  next: number | null;
}

/**
 * An entry's status by its furthest step: removed at any stage, else claimed, fulfilled, confirmed
 * ('waiting'); an entry never confirmed is 'unconfirmed' when it was asked to confirm (entries of
 * old logs were not, and count as confirmed).
 */
function statusOf(entry: EventData<'WaitlistJoined'>, progress: Record<string, string>) {
  const fundraiserId = progress.claimed ?? progress.fulfilled ?? null;
  let status: WaitlistEntryStatus;
  if (progress.removed) status = 'removed';
  else if (progress.claimed) status = 'claimed';
  else if (progress.fulfilled) status = 'fulfilled';
  else status = progress.confirmed || !entry.confirmTokenHash ? 'waiting' : 'unconfirmed';
  return { status, fundraiserId };
}

/**
 * The waitlist entries' read model: newest first by day of joining, and within a day by log
 * position. A page reads the set of days and the days it shows (from the one of its `after`),
 * then its entries by id: never the log, never every entry.
 */
export function createWaitlistEntriesQueries(store: ReadModelStore, { reveal }: { reveal: WaitlistEntriesReveal }) {
  const entries = store.projection(waitlistEntriesProjector.name);

  /** The entries of these ids, in their order, opened and with their statuses; unknown ids left out. */
  async function views(entryIds: readonly string[]): Promise<WaitlistEntryView[]> {
    const [stored, progress] = await Promise.all([
      entries.mget(entryIds.map(waitlistEntriesKeys.entry)),
      entries.hgetallMany(entryIds.map(waitlistEntriesKeys.progress)),
    ]);
    const found = stored.flatMap((json, index) =>
      json === null ? [] : [{ ...(JSON.parse(json) as StoredWaitlistEntry), progress: progress[index] ?? {} }],
    );
    const opened = await reveal(found.flatMap(({ data }) => [data.name, data.email]));
    return found.map(({ position, data, progress: steps }, index) => {
      const entry = { ...data, name: opened[2 * index] ?? null, email: opened[2 * index + 1] ?? null };
      return { position, entry, ...statusOf(entry, steps) };
    });
  }

  return {
    async page({ after, limit }: { after?: number | undefined; limit: number }): Promise<WaitlistEntriesPage> {
      let fromDay: string | undefined;
      if (after !== undefined) {
        const day = await entries.get(waitlistEntriesKeys.position(after));
        if (day === null) throw new DomainError('validation', 'after must be the next of a previous page');
        fromDay = day;
      }
      const days = (await entries.smembers(waitlistEntriesKeys.days))
        .filter((day) => fromDay === undefined || day <= fromDay)
        .sort()
        .reverse();
      const onPage: [position: number, entryId: string][] = [];
      let more = false;
      for (const [index, day] of days.entries()) {
        const onDay = Object.entries(await entries.hgetall(waitlistEntriesKeys.day(day)))
          .map(([position, entryId]): [number, string] => [Number(position), entryId])
          .filter(([position]) => day !== fromDay || after === undefined || position < after)
          .sort(([a], [b]) => b - a);
        const wanted = limit - onPage.length;
        onPage.push(...onDay.slice(0, wanted));
        if (onPage.length === limit) {
          // Every day in the set has an entry: an earlier day means more.
          more = onDay.length > wanted || index < days.length - 1;
          break;
        }
      }
      return {
        entries: await views(onPage.map(([, entryId]) => entryId)),
        next: more ? (onPage.at(-1)?.[0] ?? null) : null,
      };
    },

    /** One entry by id; null when the read model has not seen it. */
    async entry(entryId: string): Promise<WaitlistEntryView | null> {
      return (await views([entryId]))[0] ?? null;
    },

    /** The entries of a shirt in a size, oldest first. */
    async ofShirtAndSize(shirtId: string, size: string): Promise<WaitlistEntryView[]> {
      const ids = await entries.smembers(waitlistEntriesKeys.shirtAndSize(shirtId, size));
      return (await views(ids)).sort((a, b) => a.position - b.position);
    },
  };
}
export type WaitlistEntriesQueries = ReturnType<typeof createWaitlistEntriesQueries>;
