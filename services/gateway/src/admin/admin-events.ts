import type { AdminEvent, adminEventRoutes } from '@qrshirt/contracts';
import { maskEmailsIn, maskPersonalData } from '../http/mask-personal-data';
import type { HandlersOf } from '../http/route-table';
import type { RouteDeps } from '../route-deps';

const DAY_MS = 24 * 60 * 60 * 1000;

/** A date (no time) stands for its whole UTC day: from its start, or up to its end. */
function instant(value: string | undefined, dayEdge: 'start' | 'end'): Date | undefined {
  if (value === undefined) return undefined;
  const dayOnly = !value.includes('T');
  const at = new Date(dayOnly ? `${value}T00:00:00Z` : value);
  return dayOnly && dayEdge === 'end' ? new Date(at.getTime() + DAY_MS) : at;
}

/**
 * The event browser: the log filtered by stream prefix, type and time, paged by global position,
 * newest first unless `order=oldest`. Names and emails are masked unless `reveal=true`, which the
 * audit trail records (with the filters) before the log is read.
 */
export function adminEventHandlers({ eventStore, useCases }: RouteDeps): HandlersOf<typeof adminEventRoutes> {
  return {
    async listEvents({ query, user }) {
      if (query.reveal) {
        const { reveal: _shown, ...filters } = query;
        // A filter is typed freely: an address typed as a stream prefix must not enter the log,
        // where no erasure could reach it.
        await useCases.adminAudit.record(user.uid, 'reveal-events', maskEmailsIn(filters) as typeof filters);
      }
      const recordedFrom = instant(query.from, 'start');
      const recordedBefore = instant(query.to, 'end');
      const { events, next } = await eventStore.readFiltered({
        ...(query.streamPrefix !== undefined && { streamPrefix: query.streamPrefix }),
        ...(query.type !== undefined && { eventTypes: query.type }),
        ...(recordedFrom && { recordedFrom }),
        ...(recordedBefore && { recordedBefore }),
        direction: query.order === 'newest' ? 'backwards' : 'forwards',
        ...(query.after !== undefined && { cursor: query.after }),
        maxCount: query.limit,
      });
      const page: AdminEvent[] = events.map((event) => {
        const shown = query.reveal
          ? { data: event.data, metadata: event.metadata }
          : maskPersonalData(event.type, event.data, event.metadata);
        return {
          position: event.globalPosition,
          stream: event.streamName,
          revision: event.revision,
          id: event.id,
          type: event.type,
          time: event.recordedAt.toISOString(),
          ...shown,
        };
      });
      return {
        status: 200,
        // A short or empty page can still have a next: on EventStoreDB one request examines a
        // bounded stretch of the log, and the next page reads on from where this one stopped.
        body: {
          events: page,
          next: next ?? null,
          revealed: query.reveal,
        },
      };
    },
  };
}
