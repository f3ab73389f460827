import { type Admin, Kafka, Partitioners, logLevel } from 'kafkajs';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { waitFor } from '@qrshirt/test-support';
import { describeWithKafka } from '@qrshirt/test-support/vitest';

const PARTITIONS = 6;

interface Received {
  id: string;
  key: string;
  partition: number;
  seq: number;
}

// What the ingestion pipeline relies on from the broker, checked against the real one: keyed
// acks=all writes, a consumer group that sees each message once, and data that outlives a restart.
describeWithKafka('Kafka broker', (kafka) => {
  let client: Kafka;
  let admin: Admin;
  const disconnects: Array<() => Promise<void>> = [];

  beforeEach(async () => {
    // kafkajs logs errors it retries (NOT_LEADER on a fresh topic, a coordinator still loading) as
    // ERROR; real failures reach the test as rejections.
    client = new Kafka({
      clientId: 'qr-kafka-broker-test',
      brokers: kafka.brokers.split(','),
      logLevel: logLevel.NOTHING,
    });
    admin = client.admin();
    await admin.connect();
    disconnects.push(() => admin.disconnect());
  });

  afterEach(async () => {
    await Promise.all(disconnects.splice(0).map((disconnect) => disconnect()));
  });

  async function createTopic(): Promise<string> {
    const topic = kafka.freshName();
    await admin.createTopics({ topics: [{ topic, numPartitions: PARTITIONS }], waitForLeaders: true });
    return topic;
  }

  /** Sends `count` messages over `keys` keys, in several acks=all requests; returns their ids. */
  async function produce(topic: string, count: number, keys: number): Promise<string[]> {
    // Idempotent: kafkajs retries a whole request when one partition answers NOT_LEADER (which a
    // just-created topic can), and without sequence numbers the partitions that had accepted it
    // would store those messages twice.
    const producer = client.producer({
      createPartitioner: Partitioners.DefaultPartitioner,
      allowAutoTopicCreation: false,
      idempotent: true,
      maxInFlightRequests: 1,
    });
    await producer.connect();
    try {
      const messages = Array.from({ length: count }, (_, seq) => ({
        key: `fundraiser-${seq % keys}`,
        value: JSON.stringify({ id: `${topic}-${seq}`, seq }),
      }));
      for (let start = 0; start < count; start += 100) {
        await producer.send({ topic, acks: -1, messages: messages.slice(start, start + 100) });
      }
      return messages.map((_, seq) => `${topic}-${seq}`);
    } finally {
      await producer.disconnect();
    }
  }

  /** Reads the topic with a consumer group from the beginning until `expected` distinct messages arrived. */
  async function consume(topic: string, groupId: string, expected: number): Promise<Received[]> {
    const consumer = client.consumer({ groupId, allowAutoTopicCreation: false });
    await consumer.connect();
    disconnects.push(() => consumer.disconnect());
    const received: Received[] = [];
    const ids = new Set<string>();
    await consumer.subscribe({ topic, fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ partition, message }) => {
        const { id, seq } = JSON.parse(message.value?.toString() ?? '{}') as { id: string; seq: number };
        received.push({ id, key: message.key?.toString() ?? '', partition, seq });
        ids.add(id);
      },
    });
    await waitFor(
      `${expected} distinct messages to arrive`,
      () => ids.size,
      (arrived) => arrived === expected,
    );
    // Stopping commits what was processed, so a later check of the group's offsets sees it all.
    await consumer.disconnect();
    return received;
  }

  async function expectGroupAtEnd(topic: string, groupId: string): Promise<void> {
    const ends = await admin.fetchTopicOffsets(topic);
    const [committed] = await admin.fetchOffsets({ groupId, topics: [topic] });
    // A group commits nothing (-1) for a partition that never held a message; its end is 0 then.
    const positions = (offsets: Array<{ partition: number; offset: string }>) =>
      Object.fromEntries(offsets.map(({ partition, offset }) => [partition, offset === '-1' ? '0' : offset]));
    expect(positions(committed?.partitions ?? [])).toEqual(positions(ends));
  }

  it('delivers every keyed acks=all message to a consumer group exactly once, in order per key', async () => {
    const topic = await createTopic();
    const sent = await produce(topic, 600, 12);

    const received = await consume(topic, kafka.freshName(), sent.length);

    expect(received).toHaveLength(sent.length);
    expect(received.map((message) => message.id).sort()).toEqual([...sent].sort());
    const byKey = new Map<string, Received[]>();
    for (const message of received) byKey.set(message.key, [...(byKey.get(message.key) ?? []), message]);
    expect(byKey.size).toBe(12);
    for (const messages of byKey.values()) {
      expect(new Set(messages.map((message) => message.partition)).size).toBe(1);
      const seqs = messages.map((message) => message.seq);
      expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    }
    // Twelve keys over six partitions: the partitioner spread them rather than piling them up.
    expect(new Set(received.map((message) => message.partition)).size).toBeGreaterThan(1);
  });

  it.skipIf(!kafka.ownsBroker)('keeps messages and committed offsets across a broker restart', async () => {
    const local = kafka.local;
    if (!local) throw new Error('the block started no broker');
    const topic = await createTopic();
    const sent = await produce(topic, 300, 6);
    const groupId = kafka.freshName();
    await consume(topic, groupId, sent.length);

    await admin.disconnect();
    await local.halt();
    await local.restart();
    await admin.connect();

    await expectGroupAtEnd(topic, groupId);
    const reread = await consume(topic, kafka.freshName(), sent.length);
    expect(reread.map((message) => message.id).sort()).toEqual([...sent].sort());
  });
});
