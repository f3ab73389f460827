/**
 * `npm run bench`: every benchmark in one run, each figure as a ratio to its own baseline, printed
 * and written to docs/benchmarks.md with the machine and the date. A benchmark whose servers
 * cannot be started here is skipped with the reason; one that fails is reported and the run exits 1.
 */
import { fileURLToPath } from 'node:url';
import { benchCommands, formatCommandFigures } from './commands';
import { benchEventStore, formatEventStoreFigures } from './event-store';
import { benchHttp, formatHttpFigures } from './http';
import { benchKafka, formatKafkaFigures } from './kafka';
import { benchOutbox, formatOutboxFigures } from './outbox';
import { benchReplay, formatReplayFigures } from './replay';
import { type BenchSection, writeBenchmarkReport } from './report';
import { benchWaitlistJoin, formatWaitlistJoinFigures } from './waitlist-join';
import { findJavaAndMaven, findRedisServer } from '@qrshirt/test-support';

const REPORT = fileURLToPath(new URL('../../docs/benchmarks.md', import.meta.url));
const connections = 50;

interface Scenario {
  name: string;
  /** Why it cannot run on this machine; undefined when it can. */
  unavailable?: () => string | undefined;
  run(): Promise<string>;
}

const scenarios: Scenario[] = [
  { name: 'Event store (embedded SQLite)', run: async () => formatEventStoreFigures(await benchEventStore()) },
  { name: 'Donation replay (embedded SQLite)', run: async () => formatReplayFigures(await benchReplay()) },
  {
    name: 'HTTP (embedded process)',
    run: async () => formatHttpFigures(await benchHttp({ seconds: 4, rounds: 3, connections }), connections),
  },
  {
    name: 'Waitlist join against the length of the list (embedded process)',
    run: async () => formatWaitlistJoinFigures(await benchWaitlistJoin()),
  },
  { name: 'Mail outbox (embedded process, loopback SMTP)', run: async () => formatOutboxFigures(await benchOutbox()) },
  {
    name: "Commands: cost against the stream's length (embedded process)",
    run: async () =>
      formatCommandFigures(await benchCommands({ earlier: 100_000, requests: 1_500, rounds: 5, concurrency: 8 }), 8),
  },
  {
    name: 'Kafka + Redis pipeline',
    unavailable: () =>
      findJavaAndMaven() && findRedisServer() ? undefined : 'needs java and mvn for the local broker, and redis-server',
    run: async () =>
      formatKafkaFigures(
        await benchKafka({ seconds: 4, rounds: 3, connections: [50, 100, 200], rate: 2500, warmup: 10 }),
      ),
  },
];

const startedAt = new Date();
const sections: BenchSection[] = [];
for (const scenario of scenarios) {
  const began = performance.now();
  const section: BenchSection = { name: scenario.name, seconds: 0 };
  const skipped = scenario.unavailable?.();
  if (skipped) section.skipped = skipped;
  else {
    try {
      section.figures = await scenario.run();
    } catch (error) {
      section.failed = error instanceof Error ? (error.stack ?? error.message) : String(error);
    }
  }
  section.seconds = (performance.now() - began) / 1000;
  sections.push(section);
  console.log(
    section.figures ??
      `${scenario.name}: ${section.skipped ? `skipped (${section.skipped})` : `failed\n${section.failed}`}`,
  );
  console.log();
}
writeBenchmarkReport(REPORT, sections, startedAt);
console.log(`written to ${REPORT}`);
if (sections.some((section) => section.failed)) process.exit(1);
