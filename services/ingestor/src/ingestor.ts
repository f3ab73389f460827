import {
  ANALYTICS_TOPIC,
  DEAD_LETTER_TOPIC,
  decodeMessage,
  ensureTopics,
  SCANS_TOPIC,
  type TopicSettings,
} from '@qrshirt/kafka';
import { ConcurrencyError, type EventStore } from '@qrshirt/core';
import { type Consumer, type EachBatchPayload, Kafka, type KafkaMessage, logLevel } from 'kafkajs';
import type { Logger } from 'pino';
import { createPartitionWriter, type IngestedMessage, type PartitionWriter } from './partition-writer';

export interface IngestorOptions {
  brokers: string[];
  eventStore: EventStore;
  log: Logger;
  clock?: () => Date;
  groupId?: string;
  /** How this process creates the topics that do not exist yet; existing topics keep theirs. */
  topics?: TopicSettings;
  /** Largest append to the event store; a Kafka batch is cut into appends of at most this many. */
  maxAppend?: number;
  sessionTimeoutMs?: number;
  /** Events each partition's writer stores one by one per minute (core's log-cap.ts). */
  anonymousEventsPerMinute?: number;
}

export interface IngestorStatus {
  appended: number;
  deadLettered: number;
  fenced: number;
}

/**
 * After a crash kafkajs gives up on: the wait before a new consumer, doubling up to the maximum. A
 * try is one connection and a group join, cheap for the broker; a longer wait only delays the
 * catch-up once a network or broker is back (with 30 s, scans waited up to half a minute after a
 * bad network healed).
 */
const RESTART_FIRST_DELAY_MS = 1_000;
const RESTART_MAX_DELAY_MS = 5_000;

/**
 * How long a stop waits for the consumer to finish its batch and leave the group. A rebalance in
 * progress (a member that missed its heartbeats while the machine was busy rejoins first) can hold
 * kafkajs's disconnect past the process's whole shutdown deadline; past this the stop goes on to
 * close the store cleanly. Nothing is lost: offsets not committed are delivered again, and the
 * partition writers recognise what was appended already.
 */
const CONSUMER_LEAVE_MS = 5_000;

/** Why a message of `type` does not belong on `topic` (scans on the scans topic only), if it does not. */
function misplaced(type: string, topic: string): string | undefined {
  return (type === 'ScanRecorded') === (topic === SCANS_TOPIC) ? undefined : `${type} does not belong on ${topic}`;
}

/** This writer's claim was overtaken: stop the batch, commit nothing, and let Kafka redeliver. */
class Fenced extends Error {}

/**
 * The consumer group that moves scans and analytics facts from Kafka into the event store.
 * Offsets are committed only after the events are appended; exactness comes from the partition
 * streams (see partition-writer.ts), not from the commit, so a crash anywhere loses nothing and
 * writes nothing twice. Unreadable messages go to the dead-letter topic and never stop a partition.
 */
export function createIngestor(options: IngestorOptions) {
  const {
    brokers,
    eventStore,
    log,
    clock = () => new Date(),
    groupId = 'ingestor',
    topics = { partitions: 6 },
    maxAppend = 2000,
    sessionTimeoutMs = 10_000,
    anonymousEventsPerMinute,
  } = options;
  const kafka = new Kafka({ clientId: 'ingestor', brokers, logLevel: logLevel.NOTHING });
  const newConsumer = () =>
    kafka.consumer({
      groupId,
      sessionTimeout: sessionTimeoutMs,
      heartbeatInterval: Math.min(1_000, sessionTimeoutMs / 3),
      allowAutoTopicCreation: false,
      // Without these the broker answers each fetch as soon as one message is there: under a burst
      // that means many tiny fetches, commits and appends, and the broker spent more CPU per scan
      // than the gateway. A tenth of a second of waiting is far inside the freshness target.
      minBytes: 64 * 1024,
      maxWaitTimeInMs: 100,
    });
  // Not idempotent on purpose: after a failed send kafkajs hands the failed request's sequence
  // numbers to the next one, and the broker would acknowledge a dead letter it never stored. A
  // redelivered batch sends its dead letters again anyway, so they are at least once, keyed by
  // their source offset header.
  const producer = kafka.producer({ maxInFlightRequests: 1, allowAutoTopicCreation: false });
  const writers = new Map<string, PartitionWriter>();
  const status: IngestorStatus = { appended: 0, deadLettered: 0, fenced: 0 };
  let memberId = '';
  /** Known once start() asked the brokers; no batch arrives before that. */
  let clusterId = '';

  let consumer = newConsumer();
  let stopping = false;
  let restartTimer: NodeJS.Timeout | undefined;
  /** Why no consumer is in the group now (a crash, until the next join), for GET /readyz. */
  let notConsuming: string | undefined = 'not yet in the consumer group';

  function watch(watched: Consumer): void {
    // kafkajs logs nothing of its own here (logLevel NOTHING): a consumer that gave up, or is about
    // to restart, must still leave a trace.
    watched.on(watched.events.CRASH, (event) => {
      const { error, restart } = event.payload;
      log.warn({ err: error, restart }, 'Kafka consumer crashed');
      notConsuming = `the Kafka consumer crashed (${error.message}) and is restarting`;
      // kafkajs restarts a consumer only after retriable errors; after others (a broker back from
      // an outage that has no group coordinator yet) it stays stopped for good, and the
      // partitions would wait for ever. A new consumer rejoins the group and resumes from the
      // committed offsets.
      if (!restart && !stopping) scheduleRestart(RESTART_FIRST_DELAY_MS);
    });

    // A new assignment may have given a partition to someone else and back: claim again.
    watched.on(watched.events.GROUP_JOIN, (event) => {
      memberId = event.payload.memberId;
      notConsuming = undefined;
      for (const writer of writers.values()) writer.release();
      // Which process held which partitions when, matched with the kafkaMember of what it appended.
      log.info({ memberId, assignment: event.payload.memberAssignment }, 'joined the consumer group');
    });
  }

  async function run(running: Consumer): Promise<void> {
    await running.connect();
    await running.subscribe({ topics: [SCANS_TOPIC, ANALYTICS_TOPIC], fromBeginning: true });
    await running.run({ eachBatchAutoResolve: false, autoCommit: true, eachBatch });
  }

  function scheduleRestart(delayMs: number): void {
    restartTimer = setTimeout(() => {
      restartTimer = undefined;
      if (stopping) return;
      const previous = consumer;
      consumer = newConsumer();
      watch(consumer);
      log.info('starting a new Kafka consumer');
      void previous
        .disconnect()
        .catch(() => {})
        .then(() => run(consumer))
        .catch((err: unknown) => {
          log.warn({ err }, 'Kafka consumer could not start; trying again');
          if (!stopping) scheduleRestart(Math.min(delayMs * 2, RESTART_MAX_DELAY_MS));
        });
    }, delayMs);
  }

  function writerFor(topic: string, partition: number): PartitionWriter {
    const key = `${topic}:${partition}`;
    let writer = writers.get(key);
    if (!writer) {
      writer = createPartitionWriter({
        eventStore,
        topic,
        partition,
        memberId: () => memberId,
        clusterId,
        clock,
        anonymousEventsPerMinute,
      });
      writers.set(key, writer);
    }
    return writer;
  }

  async function deadLetter(message: KafkaMessage, topic: string, partition: number, reason: string): Promise<void> {
    await producer.send({
      topic: DEAD_LETTER_TOPIC,
      acks: -1,
      messages: [
        {
          key: message.key,
          value: message.value,
          headers: {
            reason,
            'source-topic': topic,
            'source-partition': String(partition),
            'source-offset': message.offset,
          },
        },
      ],
    });
    status.deadLettered += 1;
    log.warn({ topic, partition, offset: message.offset, reason }, 'message sent to the dead-letter topic');
  }

  async function eachBatch(payload: EachBatchPayload): Promise<void> {
    const { batch } = payload;
    const writer = writerFor(batch.topic, batch.partition);
    try {
      if (!writer.claimed) {
        // A member whose session ran out (a zombie) learns it here, before writing anything.
        await payload.heartbeat();
        const { otherCluster } = await writer.claim();
        if (otherCluster) {
          log.warn(
            { topic: batch.topic, partition: batch.partition, clusterId },
            'partition stream was written from another Kafka cluster; taking every message of this one as new',
          );
        }
      }
      const pending = writer.unwritten(batch.messages);
      for (let start = 0; start < pending.length; start += maxAppend) {
        if (!payload.isRunning() || payload.isStale()) return;
        const chunk = pending.slice(start, start + maxAppend);
        const ingested: IngestedMessage[] = [];
        for (const message of chunk) {
          const decoded = decodeMessage(message.value);
          const refusal = decoded.ok ? misplaced(decoded.message.type, batch.topic) : decoded.reason;
          if (refusal !== undefined) await deadLetter(message, batch.topic, batch.partition, refusal);
          else if (decoded.ok) ingested.push({ offset: message.offset, event: decoded.message });
        }
        await payload.heartbeat();
        // From here the append names the revision this writer last saw: traced, since a fenced or
        // slow append is told apart by where it stood.
        log.debug({ topic: batch.topic, partition: batch.partition, messages: ingested.length }, 'appending a batch');
        await writer.write(ingested);
        status.appended += ingested.length;
        payload.resolveOffset(chunk.at(-1)!.offset);
        await payload.commitOffsetsIfNecessary();
      }
      // Messages already in the stream (a replay after a crash) are resolved without writing.
      const lastMessage = batch.messages.at(-1);
      if (lastMessage) payload.resolveOffset(lastMessage.offset);
      await payload.commitOffsetsIfNecessary();
    } catch (error) {
      if (!(error instanceof ConcurrencyError)) throw error;
      writer.release();
      status.fenced += 1;
      log.warn(
        { topic: batch.topic, partition: batch.partition },
        'partition claimed by another ingestor; batch left to it',
      );
      throw new Fenced(`partition ${batch.topic}:${batch.partition} was claimed by another ingestor`);
    }
  }

  return {
    status: () => ({ ...status }),
    /** Throws while no consumer of this process is in the group: its partitions wait. */
    assertConsuming(): void {
      if (notConsuming) throw new Error(notConsuming);
    },
    async start(): Promise<void> {
      await ensureTopics(kafka, topics);
      clusterId = await readClusterId(kafka);
      await producer.connect();
      watch(consumer);
      await run(consumer);
    },
    /** Finishes the batch in hand, commits its offsets, leaves the group. */
    async stop(): Promise<void> {
      stopping = true;
      clearTimeout(restartTimer);
      let timer: NodeJS.Timeout | undefined;
      const left = await Promise.race([
        consumer.disconnect().then(() => true),
        new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), CONSUMER_LEAVE_MS))),
      ]).finally(() => clearTimeout(timer));
      if (!left) log.warn({ waitedMs: CONSUMER_LEAVE_MS }, 'the Kafka consumer did not leave its group in time');
      await producer.disconnect();
    },
  };
}
export type Ingestor = ReturnType<typeof createIngestor>;

async function readClusterId(kafka: Kafka): Promise<string> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    return (await admin.describeCluster()).clusterId;
  } finally {
    await admin.disconnect();
  }
}
