/**
 * The event store port. Every adapter (SQLite, EventStoreDB) passes the same contract suite
 * (`event-store.contract.ts`), so the domain and the projections never know which one runs.
 *
 * Revisions are 0-based positions inside one stream; `expectedRevision` as a number is the
 * revision of the stream's last event, as in EventStoreDB. Global positions strictly increase
 * across the whole store; a checkpoint is the global position of the last event handled.
 */
export type ExpectedRevision = 'any' | 'no_stream' | 'stream_exists' | number;

export interface NewEvent<Type extends string = string, Data = unknown> {
  /** A UUID. Retrying an append whose event ids are already stored writes nothing again. */
  id?: string;
  type: Type;
  data: Data;
  metadata?: Record<string, unknown>;
}

export interface StoredEvent<Type extends string = string, Data = unknown> {
  id: string;
  streamName: string;
  revision: number;
  globalPosition: number;
  type: Type;
  data: Data;
  metadata: Record<string, unknown>;
  recordedAt: Date;
}

export interface AppendResult {
  /** The revision of the stream's last event after the append. */
  nextExpectedRevision: number;
  /** The global position of the last event appended (or found, on an idempotent retry). */
  lastGlobalPosition: number;
}

export interface AppendOptions {
  expectedRevision?: ExpectedRevision;
}

export interface ReadStreamOptions {
  fromRevision?: number;
  maxCount?: number;
}

export interface ReadAllOptions {
  /** Exclusive: only events after this global position. Omitted: from the beginning. */
  after?: number;
  maxCount?: number;
  eventTypes?: readonly string[];
}

/**
 * A filtered page of the log for people browsing it (the admin event browser, exports): every
 * filter is optional, pages follow global positions in either direction.
 */
export interface ReadFilteredOptions {
  /** Only streams whose name starts with this (e.g. `waitlist-`). */
  streamPrefix?: string;
  eventTypes?: readonly string[];
  /** Only events recorded at or after this instant. */
  recordedFrom?: Date;
  /** Only events recorded before this instant. */
  recordedBefore?: Date;
  /** 'forwards' (oldest first, the default) or 'backwards' (newest first). */
  direction?: 'forwards' | 'backwards';
  /**
   * Exclusive: the `next` of the previous page. Forwards, the page holds later events; backwards,
   * earlier ones. Omitted: from the start (or the end, backwards).
   */
  cursor?: number;
  maxCount: number;
}

/**
 * One answer of `readFiltered`. A store that cannot filter everything itself (EventStoreDB has no
 * time filter) examines a bounded stretch of the log per call, so that no request reads the whole
 * log: a page may then hold fewer than `maxCount` events, even none, and still not be the last.
 */
export interface FilteredPage {
  events: StoredEvent[];
  /**
   * Where to read on (pass as `cursor`, same filters and direction): the last event's position
   * after a full page, or the last position examined when reading stopped early. Undefined once
   * no later (backwards: earlier) event can match. Callers wanting every match loop while it is set.
   */
  next: number | undefined;
}

/** The page of a store that examines as much of the log as it needs to fill it. */
export function fullyReadPage(events: StoredEvent[], maxCount: number): FilteredPage {
  const last = events.at(-1);
  return { events, next: events.length >= maxCount && last ? last.globalPosition : undefined };
}

export interface SubscribeOptions extends Omit<ReadAllOptions, 'maxCount'> {
  /** Largest batch handed to `onEvents` at once. */
  batchSize?: number;
  /**
   * Called with consecutive batches, catch-up first, then live. The next batch is read only
   * after the returned promise settles; if it rejects, the subscription stops with that error.
   */
  onEvents(this: void, events: StoredEvent[]): Promise<void> | void;
}

export interface Subscription {
  /** Stops reading; resolves once no `onEvents` call is running. */
  stop(): Promise<void>;
  /** Settles when the subscription ends: resolves after `stop()`, rejects on a failure. */
  readonly done: Promise<void>;
}

/**
 * What the distance between two global positions measures. `events` where positions number the
 * events 1, 2, 3 without gaps (SQLite, in memory): the head minus a checkpoint is how many events
 * lie beyond it. `bytes` where positions are offsets in the server's log (EventStoreDB): a distance
 * says how much of the log lies beyond, not how many events.
 */
export type PositionUnit = 'events' | 'bytes';

export interface EventStore {
  readonly positionUnit: PositionUnit;
  appendToStream(streamName: string, events: readonly NewEvent[], options?: AppendOptions): Promise<AppendResult>;
  /** An unknown stream reads as an empty array. */
  readStream(streamName: string, options?: ReadStreamOptions): Promise<StoredEvent[]>;
  /** The stream's newest event (what a writer fencing on revisions resumes from); undefined if none. */
  readLastEvent(streamName: string): Promise<StoredEvent | undefined>;
  readAll(options?: ReadAllOptions): Promise<StoredEvent[]>;
  readFiltered(options: ReadFilteredOptions): Promise<FilteredPage>;
  subscribe(options: SubscribeOptions): Subscription;
  /** Global position of the newest event reads return (never a server's own events), 0 when there is none. */
  headPosition(): Promise<number>;
  close(): Promise<void>;
}

export class ConcurrencyError extends Error {
  constructor(
    readonly streamName: string,
    readonly expected: ExpectedRevision,
    /** The stream's current revision, or 'no_stream'. */
    readonly actual: number | 'no_stream',
  ) {
    super(`Stream ${streamName} is at ${actual}, expected ${expected}`);
    this.name = 'ConcurrencyError';
  }
}

/**
 * A subscription's end that starting it again would only repeat (access to the log refused, a
 * checkpoint the log does not reach): a subscriber stops and reports it instead of retrying.
 */
export class SubscriptionRefusedError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'SubscriptionRefusedError';
  }
}
