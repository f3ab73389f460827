/**
 * A local single-node Kafka broker for development, until Ctrl+C:
 *   npm run kafka:local
 * prints `KAFKA_BROKERS=127.0.0.1:<port>` once the broker serves clients; its data is thrown
 * away when it stops. Needs Java 17+ and Maven (the jars are resolved on first use).
 */
import { join } from 'node:path';
import { KAFKA_VERSION, startKafka } from '@qrshirt/test-support';

const broker = await startKafka().catch((error: Error) => {
  console.error(error.message);
  process.exit(1);
});

console.log(`KAFKA_BROKERS=${broker.brokers}`);
console.error(`Kafka ${KAFKA_VERSION} ready, log in ${join(broker.dir, 'kafka.log')}; Ctrl+C stops it.`);

// The broker's process does not keep Node running (tests must not hang on it): this timer does,
// until a signal stops the broker.
const keepAlive = setInterval(() => {}, 1 << 30);
// Not once(): Ctrl+C reaches this process twice (from the terminal and relayed by tsx), and a
// second signal without a handler would kill it before the broker's data is removed.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.on(signal, () => {
    clearInterval(keepAlive);
    void broker.stop();
  });
}
