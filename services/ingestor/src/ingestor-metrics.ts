import { ANALYTICS_TOPIC, type KafkaAdminSession, SCANS_TOPIC } from '@qrshirt/kafka';
import { Counter, Gauge, type Registry } from 'prom-client';
import type { IngestorStatus } from './ingestor';

/**
 * The ingestor's own figures: messages appended, sent to the dead-letter topic and batches lost
 * to a fencing claim (counted by the ingestor, read at each scrape), and the consumer group's lag
 * per partition: the topic's end offset minus the group's committed offset, asked of the broker
 * at each scrape, so a stuck consumer shows a growing lag rather than its last good figure.
 */
export function registerIngestorMetrics(
  registry: Registry,
  options: { status: () => IngestorStatus; kafka: KafkaAdminSession; groupId: string },
): void {
  const { status, kafka, groupId } = options;
  const fromStatus = (name: string, help: string, field: keyof IngestorStatus) =>
    new Counter({
      name,
      help,
      registers: [registry],
      collect() {
        this.reset();
        this.inc(status()[field]);
      },
    });
  fromStatus('ingestor_appended_messages_total', 'Kafka messages appended to the event store', 'appended');
  fromStatus(
    'ingestor_dead_lettered_messages_total',
    'Unreadable messages sent to the dead-letter topic',
    'deadLettered',
  );
  fromStatus(
    'ingestor_fenced_batches_total',
    'Batches abandoned because another ingestor claimed the partition',
    'fenced',
  );

  new Gauge({
    name: 'kafka_consumer_lag_messages',
    help: "Messages in a partition beyond the consumer group's committed offset",
    labelNames: ['topic', 'partition'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      const topics = [SCANS_TOPIC, ANALYTICS_TOPIC];
      let lags: { topic: string; partition: number; lag: number }[];
      try {
        lags = await kafka.use(async (admin) => {
          const committed = await admin.fetchOffsets({ groupId, topics });
          const rows = [];
          for (const topic of topics) {
            const ends = await admin.fetchTopicOffsets(topic);
            const groupOffsets = committed.find((entry) => entry.topic === topic)?.partitions ?? [];
            for (const end of ends) {
              const offset = Number(groupOffsets.find((entry) => entry.partition === end.partition)?.offset ?? -1);
              // Nothing committed yet: the group starts from the earliest message still kept.
              const from = offset >= 0 ? offset : Number(end.low);
              rows.push({ topic, partition: end.partition, lag: Math.max(0, Number(end.high) - from) });
            }
          }
          return rows;
        });
      } catch {
        // Kafka is unreachable: no lag samples this scrape (GET /readyz says why), rather than no metrics at all.
        return;
      }
      for (const { topic, partition, lag } of lags) this.set({ topic, partition: String(partition) }, lag);
    },
  });
}
