import { type EventType, eventMetadata } from '@qrshirt/contracts';
import {
  ANONYMOUS_EVENTS_PER_MINUTE,
  createAnalyticsSampler,
  createLogCap,
  type EventStore,
  type NewEvent,
  rebuildScanCounter,
  type ScanCounter,
  type ScanDecision,
  type ScanRequestInput,
  scanEvents,
  toScanRequest,
} from '@qrshirt/core';
import { SCANS_TOPIC } from '@qrshirt/kafka';
import { CLUSTER_KEY, MEMBER_KEY, OFFSET_KEY, partitionStream } from './partition-stream';

export interface IngestedMessage {
  offset: string;
  event: { type: EventType; data: unknown };
}

/**
 * Appends one Kafka partition's messages to its stream, exactly once. The stream remembers the
 * last offset written, so messages replayed after a crash (appended, offset not yet committed)
 * are skipped; every append names the exact revision this writer last saw, so once another
 * ingestor has claimed the partition, this one cannot append again (ConcurrencyError).
 *
 * On the scans topic it is also where scans are counted (scan-counting.ts in core): Kafka keys
 * scans by fundraiser id, so a fundraiser's scans all reach this one partition, and only the
 * writer holding its claim can append to its stream. At each claim it rebuilds its memory of
 * counted scans from the stream's last hour, up to the revision it claims at; every append
 * names that revision, so each `counted` it writes was decided knowing every earlier scan of the
 * fundraiser, whichever gateway took it and whichever ingestor wrote it. After a failed append
 * the claim is dropped, and with it the decisions not written: the next batch claims and
 * rebuilds again.
 *
 * Past the log's cap on anonymous events (log-cap.ts in core, counted per partition writer), scans
 * are tallied and analytics sampled; each event carries the offset of the last message it holds,
 * so the stream's last event still names the last offset written, unless sampling left the
 * batch's last messages out: after a crash those are read again and sampled afresh (none of them
 * was stored, so none can count twice).
 */
export function createPartitionWriter(options: {
  eventStore: EventStore;
  topic: string;
  partition: number;
  /** The group member this process currently is (it changes when the process rejoins). */
  memberId: () => string;
  /** The Kafka cluster's id: the stream's offsets count only if they came from this cluster. */
  clusterId: string;
  clock: () => Date;
  anonymousEventsPerMinute?: number;
}) {
  const { eventStore, topic, partition, memberId, clusterId, clock } = options;
  const cap = createLogCap({ perMinute: options.anonymousEventsPerMinute ?? ANONYMOUS_EVENTS_PER_MINUTE, clock });
  const sampler = createAnalyticsSampler();
  const stream = partitionStream(topic, partition);
  let revision: number | 'no_stream' = 'no_stream';
  let lastOffset = -1n;
  let claimed = false;
  const counts = topic === SCANS_TOPIC;
  /** Who was counted lately (scans topic only): rebuilt at each claim, dropped with it. */
  let counter: ScanCounter | undefined;

  /** A scan request and whether it counts. */
  function decide(scan: ScanRequestInput): ScanDecision {
    if (!counter) throw new Error(`${stream} has no scan counter: scans go to ${SCANS_TOPIC}, written after a claim`);
    const request = toScanRequest(scan);
    return { scan: request, counted: counter.count(request) };
  }

  /** The events of a batch of messages: each scan decided, and past the cap tallied or sampled. */
  function eventsOf(messages: readonly IngestedMessage[]): NewEvent[] {
    const singly = cap.take(messages.length);
    const stamped = ({ type, data }: { type: string; data: unknown }, offset: string): NewEvent => ({
      type,
      data,
      metadata: eventMetadata(type as EventType, {
        [OFFSET_KEY]: offset,
        [MEMBER_KEY]: memberId(),
        [CLUSTER_KEY]: clusterId,
      }),
    });
    if (counts) {
      const decisions = messages.map(({ event }) => decide(event.data as ScanRequestInput));
      return scanEvents(decisions, singly).map(({ event, last }) => stamped(event, messages[last]!.offset));
    }
    return messages.flatMap(({ offset, event }, index) => {
      const weight = index < singly ? 1 : sampler.weightOf(event.type);
      if (weight === undefined) return [];
      return [stamped(weight === 1 ? event : { ...event, data: { ...(event.data as object), weight } }, offset)];
    });
  }

  return {
    get claimed() {
      return claimed;
    },
    /** Forget the claim (after a ConcurrencyError): the next batch claims afresh, if still ours. */
    release() {
      claimed = false;
      counter = undefined;
    },

    /**
     * Reads where the stream stands and appends a claim at exactly that revision. Answers whether
     * the stream's offsets came from another Kafka cluster, so that every message counts as new.
     */
    async claim(): Promise<{ otherCluster: boolean }> {
      const last = await eventStore.readLastEvent(stream);
      revision = last?.revision ?? 'no_stream';
      const offset = last?.metadata[OFFSET_KEY];
      const cluster = last?.metadata[CLUSTER_KEY];
      // Streams written before clusters were recorded carry none: their offsets are this cluster's.
      const otherCluster = typeof cluster === 'string' && cluster !== clusterId;
      lastOffset = typeof offset === 'string' && !otherCluster ? BigInt(offset) : -1n;
      const result = await eventStore.appendToStream(
        stream,
        [
          {
            type: 'PartitionClaimed',
            data: { topic, partition, memberId: memberId(), at: clock().toISOString() },
            metadata: eventMetadata('PartitionClaimed', {
              [OFFSET_KEY]: lastOffset.toString(),
              [CLUSTER_KEY]: clusterId,
            }),
          },
        ],
        { expectedRevision: revision },
      );
      revision = result.nextExpectedRevision;
      // The claim itself is no scan: the memory is the stream's up to the claim.
      counter = counts ? await rebuildScanCounter(eventStore, stream, revision) : undefined;
      claimed = true;
      return { otherCluster };
    },

    /** Messages not yet in the stream, in offset order. */
    unwritten<Message extends { offset: string }>(messages: readonly Message[]): Message[] {
      return messages.filter((message) => BigInt(message.offset) > lastOffset);
    },

    /** Appends the messages' events, each stamped with its offset; throws ConcurrencyError if fenced. */
    async write(messages: readonly IngestedMessage[]): Promise<void> {
      const last = messages.at(-1);
      if (!last) return;
      try {
        const events = eventsOf(messages);
        if (events.length > 0) {
          const result = await eventStore.appendToStream(stream, events, { expectedRevision: revision });
          revision = result.nextExpectedRevision;
        }
        lastOffset = BigInt(last.offset);
      } catch (error) {
        // Decided but not written (or written without our knowing): claim and rebuild before the next batch.
        claimed = false;
        counter = undefined;
        throw error;
      }
    },
  };
}
export type PartitionWriter = ReturnType<typeof createPartitionWriter>;
