import type { EventData } from '@qrshirt/contracts';
import type { Projector } from '../kit/projector';

/** A day of joining, which files an entry: `yyyy-mm-dd` (UTC). */
export const joinDayOf = (at: string): string => new Date(at).toISOString().slice(0, 10);

/** An entry as the read model keeps it: the signup as the log holds it (name and email sealed) and where. */
export interface StoredWaitlistEntry {
  position: number;
  data: EventData<'WaitlistJoined'>;
}

/**
 * Waitlist entries for the operators' list, its CSV and fulfilment, so that none of them reads the
 * log by type. Names and emails stay sealed under their entry's key as in the log: erasing the key
 * erases them here too. The store has no ordered index, so entries are filed per day of joining
 * (as the audit trail is): a page reads the days it shows, not every entry.
 */
export const waitlistEntriesKeys = {
  /** Every day an entry joined. */
  days: 'days',
  /** field: the log position of each of the day's entries; value: its entry id. */
  day: (day: string) => `day:${day}`,
  /** The day of the entry at this position: where a page's `after` goes on from. */
  position: (position: number) => `position:${position}`,
  /** The entry itself (JSON, `StoredWaitlistEntry`). */
  entry: (entryId: string) => `entry:${entryId}`,
  /**
   * How far the entry came, a field per step: `confirmed`, `fulfilled` and `claimed` (the
   * fundraiser's id), `removed`. Kept apart so that the status reads the same whatever the order
   * of the steps in the log.
   */
  progress: (entryId: string) => `progress:${entryId}`,
  /** The ids of the entries of a shirt in a size (a size is free text: JSON keeps the two apart). */
  shirtAndSize: (shirtId: string, size: string) => `shirt-size:${JSON.stringify([shirtId, size])}`,
};

export const waitlistEntriesProjector: Projector = {
  name: 'waitlist-entries',
  eventTypes: [
    'WaitlistJoined',
    'WaitlistEntryConfirmed',
    'WaitlistEntryFulfilled',
    'FundraiserClaimed',
    'WaitlistEntryRemoved',
  ],
  project(event, { globalPosition }) {
    switch (event.type) {
      case 'WaitlistJoined': {
        const { entryId, shirtId, size, at } = event.data;
        const day = joinDayOf(at);
        const entry: StoredWaitlistEntry = { position: globalPosition, data: event.data };
        return [
          { op: 'set', key: waitlistEntriesKeys.entry(entryId), value: JSON.stringify(entry) },
          { op: 'set', key: waitlistEntriesKeys.position(globalPosition), value: day },
          { op: 'hset', key: waitlistEntriesKeys.day(day), field: String(globalPosition), value: entryId },
          { op: 'sadd', key: waitlistEntriesKeys.days, member: day },
          { op: 'sadd', key: waitlistEntriesKeys.shirtAndSize(shirtId, size), member: entryId },
        ];
      }
      case 'WaitlistEntryConfirmed':
        return [{ op: 'hset', key: waitlistEntriesKeys.progress(event.data.entryId), field: 'confirmed', value: '1' }];
      case 'WaitlistEntryFulfilled': {
        const { entryId, fundraiserId } = event.data;
        return [{ op: 'hset', key: waitlistEntriesKeys.progress(entryId), field: 'fulfilled', value: fundraiserId }];
      }
      case 'FundraiserClaimed': {
        const { entryId, fundraiserId } = event.data;
        return [{ op: 'hset', key: waitlistEntriesKeys.progress(entryId), field: 'claimed', value: fundraiserId }];
      }
      case 'WaitlistEntryRemoved':
        return [{ op: 'hset', key: waitlistEntriesKeys.progress(event.data.entryId), field: 'removed', value: '1' }];
      default:
        return [];
    }
  },
};
