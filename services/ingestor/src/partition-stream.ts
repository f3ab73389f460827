import { ANALYTICS_TOPIC, SCANS_TOPIC } from '@qrshirt/kafka';

/** One event-store stream per Kafka partition: its revisions order and fence that partition's writes. */
export function partitionStream(topic: string, partition: number): string {
  if (topic === SCANS_TOPIC) return `scans-p${partition}`;
  if (topic === ANALYTICS_TOPIC) return `analytics-p${partition}`;
  throw new Error(`No event stream for topic ${topic}`);
}

/** Metadata key of the Kafka offset an ingested event came from (the last one, on a claim). */
export const OFFSET_KEY = 'kafkaOffset';

/**
 * Metadata key of the Kafka cluster an event's offset belongs to. Offsets start again at 0 in a
 * new cluster (a broker rebuilt from scratch while the event store lives on): they say nothing
 * about which of its messages are already written.
 */
export const CLUSTER_KEY = 'kafkaCluster';

/** Metadata key of the consumer-group member that appended an event: who wrote what, after a takeover. */
export const MEMBER_KEY = 'kafkaMember';
