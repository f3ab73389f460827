/**
 * `npm run bench`: every benchmark in one run, each figure as a ratio to its own baseline, printed
 * and written to docs/benchmarks.md with the machine and the date. A benchmark whose servers
 * cannot be started here is skipped with the reason; one that fails is reported and the run exits 1.
 * Each runs in a process of its own (this file again, with `--scenario`), as its own `npm run
 * bench:…` would: in one process, what a benchmark left on the heap was collected during the
 * next one (the donation replay measured 1.36-1.43 times its baseline after the event store's
 * benchmark, 1.05-1.26 alone).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
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

/** What a scenario's process leaves in the file it is given. */
type Outcome = { figures: string } | { failed: string };

/** Runs one scenario here and leaves its outcome in `out`: the process `npm run bench` starts for it. */
async function runScenario(scenario: Scenario, out: string): Promise<void> {
  let outcome: Outcome;
  try {
    outcome = { figures: await scenario.run() };
  } catch (error) {
    outcome = { failed: error instanceof Error ? (error.stack ?? error.message) : String(error) };
  }
  writeFileSync(out, JSON.stringify(outcome));
}

/** Runs a scenario in a process of its own, its output passed through; its outcome. */
function inOwnProcess(index: number): Outcome {
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-scenario-'));
  const out = path.join(dir, 'outcome.json');
  try {
    const child = spawnSync(
      process.execPath,
      ['--import', 'tsx', fileURLToPath(import.meta.url), '--scenario', String(index), '--out', out],
      { stdio: 'inherit' },
    );
    try {
      return JSON.parse(readFileSync(out, 'utf8')) as Outcome;
    } catch {
      return {
        failed: `its process ended (${child.error?.message ?? child.signal ?? `exit code ${child.status}`}) with no figures`,
      };
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const { values } = parseArgs({ options: { scenario: { type: 'string' }, out: { type: 'string' } } });
if (values.scenario !== undefined) {
  const scenario = scenarios[Number(values.scenario)];
  if (!scenario || values.out === undefined) throw new Error('--scenario takes a scenario number, with --out');
  await runScenario(scenario, values.out);
  // A benchmark may leave a handle open (a client's timer); its figures are written.
  process.exit(0);
}

const startedAt = new Date();
const sections: BenchSection[] = [];
for (const [index, scenario] of scenarios.entries()) {
  const began = performance.now();
  const section: BenchSection = { name: scenario.name, seconds: 0 };
  const skipped = scenario.unavailable?.();
  if (skipped) section.skipped = skipped;
  else Object.assign(section, inOwnProcess(index));
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
