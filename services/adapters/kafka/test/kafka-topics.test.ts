import { type Admin, Kafka, logLevel } from 'kafkajs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeWithKafka } from '@qrshirt/test-support/vitest';
import { createMissingTopics, durabilityWarning, readDurability } from '@qrshirt/kafka';

// The test broker is one KRaft node: one replica is all a topic can have there.
describeWithKafka('the topics the product creates', (kafka) => {
  let admin: Admin;

  beforeAll(async () => {
    admin = new Kafka({
      clientId: 'kafka-topics-test',
      brokers: kafka.brokers.split(','),
      logLevel: logLevel.NOTHING,
    }).admin();
    await admin.connect();
  });
  afterAll(async () => {
    await admin?.disconnect();
  });

  it('takes the replication factor and min.insync.replicas asked for, and says a single replica acknowledges', async () => {
    const topic = kafka.freshName();
    await createMissingTopics(admin, [topic], { partitions: 2, replicationFactor: 1, minInsyncReplicas: 1 });
    const durability = await readDurability(admin, topic);
    expect(durability).toEqual({ topic, replicas: 1, minInsyncReplicas: 1 });
    expect(durabilityWarning(durability)).toMatch(
      new RegExp(
        `^scans are acknowledged by a single Kafka replica \\(${topic}: 1 replica\\(s\\), min.insync.replicas 1\\)`,
      ),
    );
    const { topics } = await admin.fetchTopicMetadata({ topics: [topic] });
    expect(topics[0]!.partitions).toHaveLength(2);
  });

  it("takes the broker's defaults when told none, and leaves a topic that exists as it is", async () => {
    const topic = kafka.freshName();
    await createMissingTopics(admin, [topic], { partitions: 1 });
    expect(await readDurability(admin, topic)).toEqual({ topic, replicas: 1, minInsyncReplicas: 1 });
    // Asked again with other settings, it keeps its own: changing a topic is the operator's act.
    await createMissingTopics(admin, [topic], { partitions: 3, minInsyncReplicas: 2 });
    expect(await readDurability(admin, topic)).toEqual({ topic, replicas: 1, minInsyncReplicas: 1 });
    const { topics } = await admin.fetchTopicMetadata({ topics: [topic] });
    expect(topics[0]!.partitions).toHaveLength(1);
  });

  it('refuses more replicas than there are brokers in one line naming the settings and why', async () => {
    const topic = kafka.freshName();
    const refused = createMissingTopics(admin, [topic], { partitions: 1, replicationFactor: 3, minInsyncReplicas: 2 });
    await expect(refused).rejects.toThrow(
      new RegExp(
        `^Kafka refused to create ${topic} \\(KAFKA_REPLICATION_FACTOR 3, KAFKA_MIN_INSYNC_REPLICAS 2\\): Replication-factor is invalid; the cluster has 1 broker\\(s\\)$`,
      ),
    );
    expect(await admin.listTopics()).not.toContain(topic);
  });
});

it('warns of nothing once every scan is acknowledged by at least two replicas, and of writes that can never be', () => {
  expect(durabilityWarning({ topic: 'scans.v1', replicas: 3, minInsyncReplicas: 2 })).toBeUndefined();
  expect(durabilityWarning({ topic: 'scans.v1', replicas: 3, minInsyncReplicas: 1 })).toMatch(/single Kafka replica/);
  expect(durabilityWarning({ topic: 'scans.v1', replicas: 2, minInsyncReplicas: 3 })).toMatch(
    /^scans cannot be acknowledged: scans.v1 has 2 replica\(s\) but min.insync.replicas 3/,
  );
});
