import { readEvent } from '@qrshirt/contracts';
import { LRUCache } from 'lru-cache';
import type { EventStore } from '../kit/event-store';
import type { LookupKeys, WaitlistSignup } from '../kit/lookup-keys';
import { legacyWaitlistStreamName } from './waitlist-decider';

/** A shirt's legacy list as read so far: each signup's first entry id, and the last revision read. */
interface LegacyList {
  revision: number;
  entries: Map<string, string>;
}

/**
 * Signups of old logs, where each shirt's whole waitlist was one stream (`waitlist-<shirtId>`).
 * Nothing appends there any more, so each shirt's stream is read once per process and kept as an
 * index; later lookups read only what lies past the revision read (nothing, unless a gateway of
 * the earlier version still runs beside this one), so a join costs the same however long the old
 * list is. A shirt without a legacy stream costs one empty read.
 */
export function createLegacyWaitlists({
  eventStore,
  lookupKeys,
  maxShirts = 10_000,
}: {
  eventStore: EventStore;
  /** What tells two signups apart, as the signups' own streams do. */
  lookupKeys: Pick<LookupKeys, 'waitlistSignup'>;
  maxShirts?: number;
}) {
  const shirts = new LRUCache<string, LegacyList>({ max: maxShirts });
  /** Reads under way: joins arriving meanwhile share one (the first read of a long list takes a while). */
  const reading = new Map<string, Promise<LegacyList>>();

  async function catchUp(shirtId: string): Promise<LegacyList> {
    const list = shirts.get(shirtId) ?? { revision: -1, entries: new Map<string, string>() };
    const events = await eventStore.readStream(legacyWaitlistStreamName(shirtId), { fromRevision: list.revision + 1 });
    for (const stored of events) {
      const event = readEvent(stored.type, stored.data, stored.metadata);
      // An entry whose person removed it has no address left to match: signing up again joins anew.
      if (event.type === 'WaitlistJoined' && event.data.email !== null) {
        const key = lookupKeys.waitlistSignup({ ...event.data, email: event.data.email });
        if (!list.entries.has(key)) list.entries.set(key, event.data.entryId);
      }
      list.revision = stored.revision;
    }
    shirts.set(shirtId, list);
    return list;
  }

  return {
    /** The entry id this signup got on the shirt's legacy list; null when it is not there. */
    async find(shirtId: string, signup: WaitlistSignup): Promise<string | null> {
      let read = reading.get(shirtId);
      if (!read) {
        read = catchUp(shirtId).finally(() => reading.delete(shirtId));
        reading.set(shirtId, read);
      }
      return (await read).entries.get(lookupKeys.waitlistSignup(signup)) ?? null;
    },
  };
}
