import { CompressionTypes, Kafka, logLevel, type Producer } from 'kafkajs';
import {
  type AnalyticsFact,
  type Ingestion,
  IngestionUnavailableError,
  type ScanFact,
  createMicroBatcher,
  type Waiting,
} from '@qrshirt/core';
import { encodeMessage } from './kafka-messages';
import { ANALYTICS_TOPIC, ensureTopics, SCANS_TOPIC } from './kafka-topics';

export interface KafkaIngestionOptions {
  brokers: string[];
  clientId?: string;
  /** Partitions of topics this process creates; existing topics keep theirs. */
  partitions?: number;
  maxBatch?: number;
  lingerMs?: number;
  maxPending?: number;
  /** How long one produce may wait for the brokers' acknowledgement before the request fails. */
  ackTimeoutMs?: number;
  /** The longest a caller waits for its batch, retries included, before it is refused. */
  answerDeadlineMs?: number;
  /**
   * Idempotent producers allow one request in flight each, so the round trip would cap the
   * scan rate: this many producers send batches side by side.
   */
  producers?: number;
}

interface Outgoing {
  topic: string;
  key: string;
  value: string;
}

/**
 * The gateway's Kafka side of the ingestion port. kafkajs has no linger, so facts are
 * micro-batched here and each batch is one produce request, acknowledged by all in-sync replicas
 * (acks -1) before any of its callers is answered. The producers are idempotent: their own
 * retries never write a message twice.
 */
export async function createKafkaIngestion(options: KafkaIngestionOptions): Promise<Ingestion> {
  const {
    brokers,
    clientId = 'gateway',
    partitions = 6,
    maxBatch = 1000,
    lingerMs = 3,
    maxPending = 20_000,
    ackTimeoutMs = 5_000,
    answerDeadlineMs = 8_000,
    producers: producerCount = 4,
  } = options;
  const kafka = new Kafka({
    clientId,
    brokers,
    logLevel: logLevel.NOTHING,
    connectionTimeout: 2_000,
    // A hung broker still accepts connections but never answers: without this bound each attempt
    // would wait kafkajs' default 30 s. One second above the brokers' own acknowledgement wait.
    requestTimeout: ackTimeoutMs + 1_000,
    // A scanner waits for this answer: fail within seconds so it gets a 503, not a hang.
    retry: { retries: 2, initialRetryTime: 100, maxRetryTime: 1_000 },
  });
  await ensureTopics(kafka, partitions);
  const createProducer = () =>
    kafka.producer({ idempotent: true, maxInFlightRequests: 1, allowAutoTopicCreation: false });
  const idle = Array.from({ length: producerCount }, createProducer);
  await Promise.all(idle.map((producer) => producer.connect()));
  /** Replacements for producers whose request failed; each connects before its first send. */
  const unconnected = new WeakSet<Producer>();

  async function write(batch: Waiting<Outgoing>[]): Promise<void> {
    const byTopic = new Map<string, Outgoing[]>();
    for (const { item } of batch) {
      const messages = byTopic.get(item.topic);
      if (messages) messages.push(item);
      else byTopic.set(item.topic, [item]);
    }
    // The batcher never has more writes in flight than there are producers.
    let producer = idle.pop()!;
    try {
      if (unconnected.has(producer)) {
        await producer.connect();
        unconnected.delete(producer);
      }
      await withDeadline(
        answerDeadlineMs,
        producer.sendBatch({
          acks: -1,
          timeout: ackTimeoutMs,
          compression: CompressionTypes.None,
          topicMessages: [...byTopic].map(([topic, messages]) => ({
            topic,
            messages: messages.map(({ key, value }) => ({ key, value })),
          })),
        }),
      );
      for (const waiting of batch) waiting.resolve();
    } catch {
      const unavailable = new IngestionUnavailableError('Scans cannot be stored right now, please retry shortly');
      for (const waiting of batch) waiting.reject(unavailable);
      // The broker may have written the failed request anyway (a crash before it answered), yet
      // kafkajs hands its sequence numbers to the next batch: the broker would then take that
      // batch for a retry and acknowledge it without writing it, or refuse every later one as
      // out of order. A new producer gets a new producer id, so no sequence is ever reused.
      const failed = producer;
      producer = createProducer();
      unconnected.add(producer);
      // Its connections may be gone with the broker: there is nothing left to close then.
      await failed.disconnect().catch(() => {});
    } finally {
      idle.push(producer);
    }
  }

  const batcher = createMicroBatcher<Outgoing>({ write, maxBatch, lingerMs, maxPending, concurrency: producerCount });
  return {
    recordScan(scan: ScanFact) {
      return batcher.enqueue([
        { topic: SCANS_TOPIC, key: scan.fundraiserId, value: encodeMessage({ type: 'ScanRecorded', data: scan }) },
      ]);
    },
    recordAnalytics(facts: readonly AnalyticsFact[]) {
      return batcher.enqueue(
        facts.map((fact) => ({ topic: ANALYTICS_TOPIC, key: fact.type, value: encodeMessage(fact) })),
      );
    },
    async close() {
      await batcher.close();
      // Every write has returned its producer.
      await Promise.all(idle.map((producer) => producer.disconnect()));
    },
  };
}

/** Rejects once `ms` have passed; the abandoned request's producer is then replaced. */
function withDeadline<T>(ms: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no acknowledgement within ${ms} ms`)), ms);
  });
  // The losing side may still settle later; nothing may treat that as unhandled.
  work.catch(() => {});
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}
