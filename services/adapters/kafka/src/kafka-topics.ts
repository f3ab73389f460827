import type { Kafka } from 'kafkajs';

export const SCANS_TOPIC = 'scans.v1';
export const ANALYTICS_TOPIC = 'analytics.v1';
/** Where the ingestor puts messages it cannot read, so they never stop a partition. */
export const DEAD_LETTER_TOPIC = 'ingest.dlq.v1';

export const INGESTION_TOPICS = [SCANS_TOPIC, ANALYTICS_TOPIC, DEAD_LETTER_TOPIC] as const;

/**
 * Creates the topics that do not exist yet. Topics are never auto-created: kafkajs mishandles
 * auto-created topics under KRaft, and a typo should fail rather than make a new topic.
 */
export async function ensureTopics(kafka: Kafka, partitions: number): Promise<void> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const existing = new Set(await admin.listTopics());
    const missing = INGESTION_TOPICS.filter((topic) => !existing.has(topic));
    if (missing.length > 0) {
      await admin.createTopics({
        topics: missing.map((topic) => ({ topic, numPartitions: partitions })),
        waitForLeaders: true,
      });
    }
  } finally {
    await admin.disconnect();
  }
}
