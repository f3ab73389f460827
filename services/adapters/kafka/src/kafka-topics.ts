import kafkajs, { type Admin, type Kafka } from 'kafkajs';
import { z } from 'zod';

export const SCANS_TOPIC = 'scans.v1';
export const ANALYTICS_TOPIC = 'analytics.v1';
/** Where the ingestor puts messages it cannot read, so they never stop a partition. */
export const DEAD_LETTER_TOPIC = 'ingest.dlq.v1';

export const INGESTION_TOPICS = [SCANS_TOPIC, ANALYTICS_TOPIC, DEAD_LETTER_TOPIC] as const;

// From the default export: Node's ESM loader does not find this enum among kafkajs' CommonJS names.
const TOPIC_RESOURCE = kafkajs.ConfigResourceTypes.TOPIC;

const replicaCount = z.coerce.number({ error: 'expected a number of replicas' }).int().min(1).max(32).optional();

/**
 * How a process that may create the topics (the gateway with Kafka, the ingestor) makes them;
 * topics that exist keep what they have. Without KAFKA_REPLICATION_FACTOR or
 * KAFKA_MIN_INSYNC_REPLICAS the broker's defaults apply (`default.replication.factor`,
 * `min.insync.replicas`).
 */
export const kafkaTopicEnv = {
  KAFKA_PARTITIONS: z.coerce.number({ error: 'expected a number' }).int().min(1).max(1000).default(6),
  KAFKA_REPLICATION_FACTOR: replicaCount,
  KAFKA_MIN_INSYNC_REPLICAS: replicaCount,
};

export interface TopicSettings {
  partitions: number;
  /** Copies of each partition; the broker's default when absent. */
  replicationFactor?: number;
  /** In-sync copies an acks=all write needs; the broker's default when absent. */
  minInsyncReplicas?: number;
}

/** What a topic as it is on the brokers promises an acks=all write. */
export interface TopicDurability {
  topic: string;
  /** Replicas of its least replicated partition. */
  replicas: number;
  minInsyncReplicas: number;
}

/**
 * Creates the topics that do not exist yet, and answers how durable the scans' topic is.
 * Topics are never auto-created: kafkajs mishandles auto-created topics under KRaft, and a typo
 * should fail rather than make a new topic.
 */
export async function ensureTopics(kafka: Kafka, settings: TopicSettings): Promise<TopicDurability> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    await createMissingTopics(admin, INGESTION_TOPICS, settings);
    return await readDurability(admin, SCANS_TOPIC);
  } finally {
    await admin.disconnect();
  }
}

export async function createMissingTopics(
  admin: Admin,
  topics: readonly string[],
  { partitions, replicationFactor, minInsyncReplicas }: TopicSettings,
): Promise<void> {
  const existing = new Set(await admin.listTopics());
  const missing = topics.filter((topic) => !existing.has(topic));
  if (missing.length === 0) return;
  try {
    await admin.createTopics({
      topics: missing.map((topic) => ({
        topic,
        numPartitions: partitions,
        // kafkajs' -1 is the broker's default.
        replicationFactor: replicationFactor ?? -1,
        configEntries:
          minInsyncReplicas === undefined ? [] : [{ name: 'min.insync.replicas', value: String(minInsyncReplicas) }],
      })),
      waitForLeaders: true,
    });
  } catch (error) {
    // kafkajs wraps the broker's answer per topic, by its code alone ("Replication-factor is
    // invalid"): the number of brokers says what to change.
    const reasons = (error as { errors?: { message?: string }[] }).errors?.map(({ message }) => message);
    const brokers = await admin.describeCluster().then(
      (cluster) => `; the cluster has ${cluster.brokers.length} broker(s)`,
      () => '',
    );
    const why = `${reasons?.length ? reasons.join('; ') : error instanceof Error ? error.message : String(error)}${brokers}`;
    throw new Error(
      `Kafka refused to create ${missing.join(', ')} (KAFKA_REPLICATION_FACTOR ${replicationFactor ?? "the broker's"}, ` +
        `KAFKA_MIN_INSYNC_REPLICAS ${minInsyncReplicas ?? "the broker's"}): ${why}`,
      { cause: error },
    );
  }
}

export async function readDurability(admin: Admin, topic: string): Promise<TopicDurability> {
  const [{ topics }, { resources }] = await Promise.all([
    admin.fetchTopicMetadata({ topics: [topic] }),
    admin.describeConfigs({
      resources: [{ type: TOPIC_RESOURCE, name: topic, configNames: ['min.insync.replicas'] }],
      includeSynonyms: false,
    }),
  ]);
  const partitions = topics[0]?.partitions ?? [];
  const value = resources[0]?.configEntries.find(({ configName }) => configName === 'min.insync.replicas')?.configValue;
  return {
    topic,
    replicas: Math.min(...partitions.map(({ replicas }) => replicas.length)),
    minInsyncReplicas: Number(value ?? 1),
  };
}

/**
 * The start-up warning for a topic whose acks=all writes may be acknowledged by one broker alone
 * (one replica, or `min.insync.replicas` 1 once the others fall behind), or can never be (more
 * in-sync replicas asked for than there are); none otherwise.
 */
export function durabilityWarning({ topic, replicas, minInsyncReplicas }: TopicDurability): string | undefined {
  if (minInsyncReplicas > replicas) {
    return (
      `scans cannot be acknowledged: ${topic} has ${replicas} replica(s) but min.insync.replicas ` +
      `${minInsyncReplicas}, so Kafka refuses every write and every scan is answered 503 (docs/operations.md)`
    );
  }
  if (Math.min(replicas, minInsyncReplicas) > 1) return undefined;
  return (
    `scans are acknowledged by a single Kafka replica (${topic}: ${replicas} replica(s), min.insync.replicas ` +
    `${minInsyncReplicas}): a broker that loses its disk takes the scans only it had with it. ` +
    'Set KAFKA_REPLICATION_FACTOR=3 and KAFKA_MIN_INSYNC_REPLICAS=2 for new topics (docs/operations.md)'
  );
}
