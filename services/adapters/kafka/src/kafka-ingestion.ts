import { performance } from 'node:perf_hooks';
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
import { ANALYTICS_TOPIC, ensureTopics, SCANS_TOPIC, durabilityWarning } from './kafka-topics';

/** How long a caller waits at most by default, from when its fact was accepted (`answerDeadlineMs`). */
export const KAFKA_ANSWER_DEADLINE_MS = 8_000;

export interface KafkaIngestionOptions {
  brokers: string[];
  clientId?: string;
  /** Partitions of topics this process creates; existing topics keep theirs. */
  partitions?: number;
  /** Replicas of topics this process creates (the broker's default when absent). */
  replicationFactor?: number;
  /** `min.insync.replicas` of topics this process creates (the broker's default when absent). */
  minInsyncReplicas?: number;
  /** Told at start when the scans' topic lets a single broker acknowledge a scan, or none. */
  warn?: (message: string) => void;
  maxBatch?: number;
  lingerMs?: number;
  maxPending?: number;
  /** How long one produce may wait for the brokers' acknowledgement before the request fails. */
  ackTimeoutMs?: number;
  /**
   * The longest a caller waits, from when its fact was accepted: queued behind other writes,
   * connecting and producing, retries included. Past it, it is refused.
   */
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
    replicationFactor,
    minInsyncReplicas,
    warn,
    maxBatch = 1000,
    lingerMs = 3,
    maxPending = 20_000,
    ackTimeoutMs = 5_000,
    answerDeadlineMs = KAFKA_ANSWER_DEADLINE_MS,
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
  const durability = await ensureTopics(kafka, { partitions, replicationFactor, minInsyncReplicas });
  const weak = durabilityWarning(durability);
  if (weak) warn?.(weak);
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
    const sending = producer;
    try {
      // The batch's oldest fact (its first) has waited longest: its caller's deadline is the batch's.
      const leftMs = answerDeadlineMs - (performance.now() - batch[0]!.acceptedAt);
      await withDeadline(leftMs, async () => {
        if (unconnected.has(sending)) {
          await sending.connect();
          unconnected.delete(sending);
        }
        await sending.sendBatch({
          acks: -1,
          timeout: ackTimeoutMs,
          compression: CompressionTypes.None,
          topicMessages: [...byTopic].map(([topic, messages]) => ({
            topic,
            messages: messages.map(({ key, value }) => ({ key, value })),
          })),
        });
      });
      for (const waiting of batch) waiting.resolve();
    } catch {
      const unavailable = new IngestionUnavailableError('Scans cannot be stored right now, please retry shortly');
      for (const waiting of batch) waiting.reject(unavailable);
      // The broker may have written the failed request anyway (a crash before it answered), yet
      // kafkajs hands its sequence numbers to the next batch: the broker would then take that
      // batch for a retry and acknowledge it without writing it, or refuse every later one as
      // out of order. A new producer gets a new producer id, so no sequence is ever reused.
      producer = createProducer();
      unconnected.add(producer);
      // Not awaited: closing connections to a broker cut off may hang, and the next batch's
      // callers must not wait for it. Gone with the broker, there is nothing left to close.
      sending.disconnect().catch(() => {});
    } finally {
      idle.push(producer);
    }
  }

  const batcher = createMicroBatcher<Outgoing>({
    write,
    maxBatch,
    lingerMs,
    maxPending,
    concurrency: producerCount,
    deadlineMs: answerDeadlineMs,
  });
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
function withDeadline<T>(ms: number, start: () => Promise<T>): Promise<T> {
  if (ms <= 0) return Promise.reject(new Error('the deadline passed before the batch was sent'));
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no acknowledgement within ${ms} ms`)), ms);
  });
  const work = start();
  // The losing side may still settle later; nothing may treat that as unhandled.
  work.catch(() => {});
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}
