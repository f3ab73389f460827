import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSqliteEventStore } from '@qrshirt/sqlite';
import { DEAD_LETTER_TOPIC, encodeMessage, SCANS_TOPIC } from '@qrshirt/kafka';
import { Kafka, logLevel } from 'kafkajs';
import { pino } from 'pino';
import { afterAll, expect, it } from 'vitest';
import { waitFor } from '@qrshirt/test-support';
import { describeWithKafka } from '@qrshirt/test-support/vitest';
import { createIngestor } from '../src/ingestor';

describeWithKafka('the ingestor and unreadable messages', (kafka) => {
  const dir = mkdtempSync(join(tmpdir(), 'dead-letter-'));
  const eventStore = createSqliteEventStore({ path: join(dir, 'events.sqlite') });
  afterAll(async () => {
    await eventStore.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('sends them to the dead-letter topic with the reason, counts them, and goes on', async () => {
    const ingestor = createIngestor({
      brokers: [kafka.brokers],
      eventStore,
      log: pino({ level: 'silent' }),
      groupId: kafka.freshName(),
      topics: { partitions: 1 },
    });
    await ingestor.start();
    const client = new Kafka({ clientId: 'dead-letter-test', brokers: [kafka.brokers], logLevel: logLevel.NOTHING });
    const producer = client.producer({ idempotent: true, maxInFlightRequests: 1 });
    await producer.connect();
    const scan = (id: string) =>
      encodeMessage({ type: 'ScanRecorded', data: { scanId: id, fundraiserId: 'f', at: new Date().toISOString() } });
    await producer.send({
      topic: SCANS_TOPIC,
      acks: -1,
      messages: [
        { key: 'f', value: scan('before') },
        { key: 'f', value: '{broken json' },
        { key: 'f', value: JSON.stringify({ type: 'ScanRecorded', data: { scanId: 'x' } }) },
        // Analytics belong on their own topic: a scans partition's writer decides scans only.
        { key: 'f', value: encodeMessage({ type: 'PageViewed', data: { path: '/', at: new Date().toISOString() } }) },
        { key: 'f', value: scan('after') },
      ],
    });
    await producer.disconnect();

    const scans = await waitFor(
      'two scans appended and three messages dead-lettered',
      async () =>
        (await eventStore.readAll({ eventTypes: ['ScanRecorded'] })).map(
          (event) => (event.data as { scanId: string }).scanId,
        ),
      (appended) => appended.length >= 2 && ingestor.status().deadLettered >= 3,
    );
    expect(scans).toEqual(['before', 'after']);
    expect(ingestor.status().deadLettered).toBe(3);

    const consumer = client.consumer({ groupId: kafka.freshName() });
    await consumer.connect();
    await consumer.subscribe({ topic: DEAD_LETTER_TOPIC, fromBeginning: true });
    const reasons: string[] = [];
    await consumer.run({
      eachMessage: async ({ message }) => {
        reasons.push(String(message.headers?.reason));
      },
    });
    await waitFor(
      'three dead letters read back',
      () => reasons.length,
      (count) => count >= 3,
    );
    await consumer.disconnect();
    await ingestor.stop();
    expect(reasons).toEqual([
      'not JSON',
      expect.stringMatching(/^invalid ScanRecorded/),
      `PageViewed does not belong on ${SCANS_TOPIC}`,
    ]);
  });
});
