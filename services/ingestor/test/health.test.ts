import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createKafkaAdminSession, encodeMessage, ensureTopics, SCANS_TOPIC } from '@qrshirt/kafka';
import { Kafka, logLevel } from 'kafkajs';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { eventually, scaled, startIngestorProcess, type WorkerProcess } from '@qrshirt/test-support';
import { describeWithKafka } from '@qrshirt/test-support/vitest';
import { registerIngestorMetrics } from '../src/ingestor-metrics';

const PARTITIONS = 3;

/** Every sample of `name` in a Prometheus text exposition, keyed by its label text. */
function samples(metrics: string, name: string): Map<string, number> {
  const found = new Map<string, number>();
  for (const match of metrics.matchAll(new RegExp(`^${name}(\\{[^}]*\\})? (\\S+)$`, 'gm'))) {
    found.set(match[1] ?? '', Number(match[2]));
  }
  return found;
}

describeWithKafka('ingestor health and metrics', (kafka) => {
  let client: Kafka;
  let dataDir: string;
  let ingestor: WorkerProcess | undefined;

  beforeAll(async () => {
    client = new Kafka({ clientId: 'ingestor-health-test', brokers: [kafka.brokers], logLevel: logLevel.NOTHING });
    await ensureTopics(client, { partitions: PARTITIONS });
    dataDir = await mkdtemp(path.join(tmpdir(), 'qrshirt-ingestor-health-'));
  });
  afterAll(async () => {
    await ingestor?.kill();
    await rm(dataDir, { recursive: true, force: true });
  });

  async function produce(messages: { partition: number; value: string }[]): Promise<void> {
    const producer = client.producer({ idempotent: true, maxInFlightRequests: 1 });
    await producer.connect();
    await producer.send({
      topic: SCANS_TOPIC,
      acks: -1,
      messages: messages.map((message) => ({ key: 'f', ...message })),
    });
    await producer.disconnect();
  }
  const scan = (scanId: string) =>
    encodeMessage({ type: 'ScanRecorded', data: { scanId, fundraiserId: 'f', at: new Date().toISOString() } });

  it('reports consumer lag per partition as end offset minus the group’s committed offset', async () => {
    const groupId = kafka.freshName();
    await produce([0, 1, 2, 3, 4].map((i) => ({ partition: 1, value: scan(`lag-${i}`) })));
    const registry = new Registry();
    const session = createKafkaAdminSession([kafka.brokers], 'lag-test');
    registerIngestorMetrics(registry, {
      status: () => ({ appended: 0, deadLettered: 0, fenced: 0 }),
      kafka: session,
      groupId,
    });
    try {
      const admin = client.admin();
      await admin.connect();
      const ends = await admin.fetchTopicOffsets(SCANS_TOPIC);
      const end = ends.find((offsets) => offsets.partition === 1)!;
      const lagOf = async () => samples(await registry.metrics(), 'kafka_consumer_lag_messages');

      // Nothing committed: everything kept in the partition is still to be read.
      let lags = await lagOf();
      expect(lags.size).toBe(2 * PARTITIONS);
      expect(lags.get('{topic="scans.v1",partition="1"}')).toBe(Number(end.high) - Number(end.low));

      await admin.setOffsets({
        groupId,
        topic: SCANS_TOPIC,
        partitions: [{ partition: 1, offset: String(Number(end.high) - 2) }],
      });
      await admin.disconnect();
      lags = await lagOf();
      expect(lags.get('{topic="scans.v1",partition="1"}')).toBe(2);
    } finally {
      await session.close();
    }
  });

  it('serves /healthz, /readyz and /metrics: appends, dead letters, and no lag once it has caught up', async () => {
    const groupId = kafka.freshName();
    ingestor = await startIngestorProcess({
      KAFKA_BROKERS: kafka.brokers,
      KAFKA_PARTITIONS: String(PARTITIONS),
      INGESTOR_GROUP_ID: groupId,
      DATA_DIR: dataDir,
    });
    await produce([
      { partition: 0, value: scan('health-1') },
      { partition: 0, value: '{not json' },
      { partition: 2, value: scan('health-2') },
    ]);
    expect(await (await fetch(`${ingestor.opsUrl}/healthz`)).json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${ingestor.opsUrl}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({
      status: 'ready',
      checks: { eventStore: 'up', kafka: 'up', consumer: 'up', diskSpace: 'up' },
    });

    const metrics = await eventually(
      async () => (await fetch(`${ingestor!.opsUrl}/metrics`)).text(),
      // A scrape reads the counters before it has asked the broker for the lag: wait for both.
      (text) => {
        const lags = samples(text, 'kafka_consumer_lag_messages');
        const deadLettered = samples(text, 'ingestor_dead_lettered_messages_total').get('{service="ingestor"}') ?? 0;
        return lags.size === 2 * PARTITIONS && [...lags.values()].every((lag) => lag === 0) && deadLettered > 0;
      },
    );
    const lags = samples(metrics, 'kafka_consumer_lag_messages');
    expect([...lags.values()]).toEqual(new Array(2 * PARTITIONS).fill(0));
    expect(samples(metrics, 'ingestor_dead_lettered_messages_total').get('{service="ingestor"}')).toBe(1);
    expect(samples(metrics, 'ingestor_appended_messages_total').get('{service="ingestor"}')).toBeGreaterThanOrEqual(2);
    expect(samples(metrics, 'event_store_append_batch_size_count').get('{service="ingestor"}')).toBeGreaterThan(0);
    expect(
      samples(metrics, 'event_store_append_duration_seconds_count').get('{service="ingestor",outcome="ok"}'),
    ).toBeGreaterThan(0);
  });

  it.skipIf(!kafka.ownsBroker)(
    'answers /readyz with 503 naming Kafka, then its consumer, while the broker is down, and 200 once back',
    async () => {
      type Body = { error: string; checks: Record<string, string> };
      const readyz = async () => {
        const answer = await fetch(`${ingestor!.opsUrl}/readyz`);
        return { status: answer.status, body: (await answer.json()) as Body };
      };
      await kafka.local!.halt();
      try {
        const answer = await readyz();
        expect(answer.status).toBe(503);
        expect(answer.body.error).toMatch(/^Not ready: kafka(, consumer)? down$/);
        expect(answer.body.checks).toMatchObject({ eventStore: 'up', kafka: expect.stringMatching(/^down: /) });
        // Metrics still answer, without lag samples it cannot know.
        expect((await fetch(`${ingestor!.opsUrl}/metrics`)).status).toBe(200);
        // Its consumer gives up on the group before long: a crashed consumer is no reader either.
        const crashed = await eventually(readyz, (current) => current.body.checks.consumer !== 'up', scaled(60_000));
        expect(crashed.body.checks.consumer).toMatch(/^down: the Kafka consumer crashed \(.+\) and is restarting$/);
      } finally {
        await kafka.local!.restart();
      }
      const again = await eventually(readyz, (current) => current.status === 200, scaled(60_000));
      expect(again).toEqual({
        status: 200,
        body: { status: 'ready', checks: { eventStore: 'up', kafka: 'up', consumer: 'up', diskSpace: 'up' } },
      });
    },
    scaled(180_000),
  );

  it('stops on SIGTERM within 10 s with its offsets committed', async () => {
    // Exit code 0: it stopped within its own shutdown deadline (SHUTDOWN_DEADLINE_MS, 9 s), which
    // exits with 1 otherwise; how long it took is in the 'shut down' line.
    const code = await ingestor!.terminate();
    expect(code, JSON.stringify(ingestor!.logs.slice(-5))).toBe(0);
    const shutDown = ingestor!.logs.find((line) => line.msg === 'shut down');
    console.log(`[ingestor] shut down in ${String(shutDown?.ms)} ms after SIGTERM`);
    expect(ingestor!.logs.map((line) => line.msg)).toContain('shut down');
  });
});
