import { isDeepStrictEqual } from 'node:util';
import { type DomainEvent, eventDefinitions, eventMetadata, readEvent } from '@qrshirt/contracts';
import { type AppendResult, ConcurrencyError, type EventStore, type NewEvent } from './event-store';
import { type Decider, DomainError } from './decider';

export interface CommandHandlerOptions {
  eventStore: EventStore;
  /** How many times a decision is re-made on a fresh read after losing a race to another writer. */
  retries?: number;
}

export interface HandleOptions<Event> {
  /**
   * Deterministic event ids (UUIDs, for EventStoreDB), e.g. derived from a fundraiser id and an
   * Idempotency-Key, so the store drops a duplicate of an append it already holds. If the events
   * it holds under those ids carry other data, the command is decided again on the fresh stream.
   * Undefined: the store picks an id.
   */
  eventId?(event: Event, index: number): string | undefined;
  /** Merged into every appended event's metadata (e.g. a request or user id). */
  metadata?: Record<string, unknown>;
}

export interface HandleResult<Event, State> {
  /** The events appended; [] when the decision was that nothing happens (e.g. a repeated request). */
  events: Event[];
  /** The stream's state after those events. */
  state: State;
  /** The revision of the stream's last event after handling; 'no_stream' if it is still empty. */
  nextExpectedRevision: number | 'no_stream';
  /** Global position of the last appended event (to wait for projections); null if none was appended. */
  lastGlobalPosition: number | null;
}

export interface CommandHandler {
  /**
   * Reads the stream, folds it, decides, and appends with the exact revision read. The command is
   * built from the current state, and rebuilt after each lost race, so it can depend on it
   * (e.g. register a user, or update the profile if already registered). DomainErrors propagate;
   * a ConcurrencyError propagates only once the retries are used up.
   */
  handle<const Command, Event extends DomainEvent, State>(
    streamName: string,
    decider: Decider<Command, Event, State>,
    // `const` and NoInfer: the command's type comes from the decider alone, and a literal `type`
    // in the callback is checked against its commands instead of being widened to string.
    command: (state: State) => NoInfer<Command>,
    options?: HandleOptions<Event>,
  ): Promise<HandleResult<Event, State>>;
  /** The stream's current state (the decider's initial state for an unknown stream). */
  loadState<Event extends DomainEvent, State>(
    streamName: string,
    decider: Decider<unknown, Event, State>,
  ): Promise<State>;
}

export function createCommandHandler({ eventStore, retries = 3 }: CommandHandlerOptions): CommandHandler {
  async function load<Event extends DomainEvent, State>(
    streamName: string,
    decider: Decider<never, Event, State>,
  ): Promise<{ state: State; revision: number | 'no_stream' }> {
    const stored = await eventStore.readStream(streamName);
    let state = decider.initialState();
    for (const event of stored) {
      // Streams are written only through their own decider, so their events are its events.
      state = decider.evolve(state, readEvent(event.type, event.data, event.metadata) as Event);
    }
    return { state, revision: stored.at(-1)?.revision ?? 'no_stream' };
  }

  /** Whether the stream's events up to `lastRevision` end with exactly these events. */
  async function holds(streamName: string, lastRevision: number, events: readonly NewEvent[]): Promise<boolean> {
    const stored = await eventStore.readStream(streamName, {
      fromRevision: lastRevision - events.length + 1,
      maxCount: events.length,
    });
    return events.every((event, index) => {
      const found = stored[index];
      // Compared as stored: JSON drops undefined fields.
      return (
        found !== undefined &&
        found.id === event.id &&
        isDeepStrictEqual(found.data, JSON.parse(JSON.stringify(event.data)))
      );
    });
  }

  return {
    async handle(streamName, decider, command, options = {}) {
      for (let attempt = 0; ; attempt += 1) {
        const { state, revision } = await load(streamName, decider);
        const events = decider.decide(command(state), state);
        if (events.length === 0) {
          return { events, state, nextExpectedRevision: revision, lastGlobalPosition: null };
        }
        const outgoing = events.map((event, index) =>
          toNewEvent(event, options.eventId?.(event, index), options.metadata),
        );
        let appended: AppendResult;
        try {
          appended = await eventStore.appendToStream(streamName, outgoing, { expectedRevision: revision });
        } catch (error) {
          if (!(error instanceof ConcurrencyError) || attempt >= retries) throw error;
          continue;
        }
        // With caller-chosen ids the store answers success for events it already holds, even when
        // a concurrent duplicate wrote them with other data (the same Idempotency-Key with another
        // amount): then decide again on what is really there.
        if (options.eventId && !(await holds(streamName, appended.nextExpectedRevision, outgoing))) {
          if (attempt >= retries) throw new ConcurrencyError(streamName, revision, appended.nextExpectedRevision);
          continue;
        }
        return {
          events,
          state: events.reduce(decider.evolve, state),
          nextExpectedRevision: appended.nextExpectedRevision,
          lastGlobalPosition: appended.lastGlobalPosition,
        };
      }
    },

    async loadState(streamName, decider) {
      return (await load(streamName, decider)).state;
    },
  };
}

/**
 * Refuses data its schema rejects: `readEvent` validates on every read, so one bad event
 * would make its stream unreadable for good.
 */
function toNewEvent(
  event: DomainEvent,
  id: string | undefined,
  metadata: Record<string, unknown> | undefined,
): NewEvent {
  const parsed = eventDefinitions[event.type].schema.safeParse(event.data);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => `${issue.path.join('.') || event.type}: ${issue.message}`);
    throw new DomainError('validation', issues.join('; '));
  }
  return {
    ...(id === undefined ? {} : { id }),
    type: event.type,
    data: parsed.data,
    metadata: eventMetadata(event.type, metadata),
  };
}
