import { randomUUID } from 'node:crypto';
import { Kafka, logLevel } from 'kafkajs';
import { afterAll, beforeAll, describe } from 'vitest';
import { type LocalKafka, findJavaAndMaven, startKafka } from './kafka';
import { infraRequired } from './require-infra';

export interface TestKafka {
  /** The bootstrap brokers (`host:port[,host:port]`); set once the block's tests run. */
  readonly brokers: string;
  /**
   * Whether the block started its own broker (known while tests are collected, for skipIf):
   * only then can a test stop and restart it through `local`.
   */
  readonly ownsBroker: boolean;
  /** The broker the block started; undefined with KAFKA_BROKERS, and until the tests run. */
  readonly local: LocalKafka | undefined;
  /** A topic or consumer-group name no other test of this run uses. */
  freshName(): string;
}

const reason = 'KAFKA_BROKERS not set and java or mvn not found (the local broker needs Java 17+ and Maven)';

/**
 * A describe block with a real Kafka broker: KAFKA_BROKERS's, or a single-node KRaft broker
 * started for the block (startKafka). It skips loudly when neither is possible, and
 * fails instead when REQUIRE_INFRA names kafka, so CI never passes without having run it.
 *
 * There is no testcontainers branch: the local broker needs only Java and Maven, and a machine
 * with Docker but without them can run the same broker version (KAFKA_VERSION) in a container
 * and point KAFKA_BROKERS at it.
 */
export function describeWithKafka(name: string, body: (kafka: TestKafka) => void): void {
  const givenBrokers = process.env.KAFKA_BROKERS || undefined;
  const canStart = givenBrokers !== undefined || findJavaAndMaven() !== undefined;
  const runPrefix = `qr-test-${randomUUID()}`;
  let names = 0;
  let brokers = givenBrokers ?? '';
  let local: LocalKafka | undefined;
  const kafka: TestKafka = {
    get brokers() {
      return brokers;
    },
    ownsBroker: givenBrokers === undefined,
    get local() {
      return local;
    },
    freshName: () => `${runPrefix}-${++names}`,
  };

  if (!canStart && !infraRequired('kafka')) {
    console.warn(`[kafka] ${name} skipped: ${reason}`);
    describe.skip(`${name} (skipped: ${reason})`, () => body(kafka));
    return;
  }

  describe(name, () => {
    beforeAll(async () => {
      if (!canStart) throw new Error(`REQUIRE_INFRA names kafka, but ${reason}`);
      if (givenBrokers === undefined) {
        local = await startKafka();
        brokers = local.brokers;
      }
    });

    afterAll(async () => {
      // A KAFKA_BROKERS broker outlives the run: leave none of its topics or groups behind.
      if (givenBrokers !== undefined) await deleteRunLeftovers(givenBrokers, runPrefix);
      await local?.stop();
    });

    body(kafka);
  });
}

async function deleteRunLeftovers(brokers: string, prefix: string): Promise<void> {
  const admin = new Kafka({
    clientId: 'qr-test-cleanup',
    brokers: brokers.split(','),
    logLevel: logLevel.NOTHING,
  }).admin();
  await admin.connect();
  try {
    const topics = (await admin.listTopics()).filter((topic) => topic.startsWith(prefix));
    if (topics.length > 0) await admin.deleteTopics({ topics });
    const { groups } = await admin.listGroups();
    const groupIds = groups.map((group) => group.groupId).filter((groupId) => groupId.startsWith(prefix));
    if (groupIds.length > 0) await admin.deleteGroups(groupIds);
  } finally {
    await admin.disconnect();
  }
}
