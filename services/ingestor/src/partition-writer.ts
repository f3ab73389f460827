import { type EventType, eventMetadata } from '@qrshirt/contracts';
import {
  type EventStore,
  type NewEvent,
  rebuildScanCounter,
  type ScanCounter,
  type ScanRequestInput,
  scanRecorded,
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
}) {
  const { eventStore, topic, partition, memberId, clusterId, clock } = options;
  const stream = partitionStream(topic, partition);
  let revision: number | 'no_stream' = 'no_stream';
  let lastOffset = -1n;
  let claimed = false;
  const counts = topic === SCANS_TOPIC;
  /** Who was counted lately (scans topic only): rebuilt at each claim, dropped with it. */
  let counter: ScanCounter | undefined;

  /** The event of a scan request: the request, and whether it counts. */
  function decide(scan: ScanRequestInput): unknown {
    if (!counter) throw new Error(`${stream} has no scan counter: scans go to ${SCANS_TOPIC}, written after a claim`);
    const request = toScanRequest(scan);
    return scanRecorded(request, counter.count(request)).data;
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
      const events: NewEvent[] = messages.map(({ offset, event }) => ({
        type: event.type,
        data: event.type === 'ScanRecorded' ? decide(event.data as ScanRequestInput) : event.data,
        metadata: eventMetadata(event.type, {
          [OFFSET_KEY]: offset,
          [MEMBER_KEY]: memberId(),
          [CLUSTER_KEY]: clusterId,
        }),
      }));
      try {
        const result = await eventStore.appendToStream(stream, events, { expectedRevision: revision });
        revision = result.nextExpectedRevision;
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
