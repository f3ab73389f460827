import { Kafka, logLevel } from 'kafkajs';
import { afterEach, expect, it, vi } from 'vitest';
import { describeWithKafka } from '@qrshirt/test-support/vitest';

// kafkajs 2.2.4, unmaintained, re-armed a 1 ms timer for ever on every connection that had
// answered a request (tulios/kafkajs#1704; Node 24 warns of its negative delay, #1751): an idle
// client burned CPU in every process. patches/kafkajs+2.2.4.patch stops it; this checks the patch
// is applied to what the product runs.
describeWithKafka('kafkajs, as patched', (kafka) => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('arms no timer while a connected producer is idle, and warns of no negative timeout', async () => {
    const client = new Kafka({
      clientId: 'kafkajs-idle-test',
      brokers: kafka.brokers.split(','),
      logLevel: logLevel.NOTHING,
    });
    const admin = client.admin();
    const producer = client.producer();
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on('warning', onWarning);
    try {
      await admin.connect();
      const topic = kafka.freshName();
      await admin.createTopics({ topics: [{ topic, numPartitions: 1 }], waitForLeaders: true });
      await producer.connect();
      await producer.send({ topic, messages: [{ value: 'one' }] });
      await new Promise((resolve) => setTimeout(resolve, 50));

      const timers = vi.spyOn(globalThis, 'setTimeout');
      await new Promise((resolve) => setTimeout(resolve, 500));
      // Our own wait above is the one call; unpatched, each connection armed one every millisecond.
      expect(timers.mock.calls.length).toBeLessThanOrEqual(3);
      expect(warnings).not.toContain('TimeoutNegativeWarning');
    } finally {
      process.off('warning', onWarning);
      await producer.disconnect();
      await admin.disconnect();
    }
  });
});
