/** `npm run bench`: every benchmark in one run, each figure as a ratio to its own baseline. */
import { benchEventStore, formatEventStoreFigures } from './event-store';
import { benchHttp, formatHttpFigures } from './http';
import { benchKafka, formatKafkaFigures } from './kafka';
import { findJavaAndMaven } from '../infra/kafka';
import { findRedisServer } from '../infra/redis';

const connections = 50;
console.log(formatEventStoreFigures(await benchEventStore()));
console.log();
console.log(formatHttpFigures(await benchHttp({ seconds: 4, rounds: 3, connections }), connections));
console.log();
if (findJavaAndMaven() && findRedisServer()) {
  console.log(formatKafkaFigures(await benchKafka({ seconds: 4, rounds: 3, connections, rate: 2500 })));
} else {
  console.log('Kafka pipeline: skipped (needs java and mvn for the local broker, and redis-server)');
}
