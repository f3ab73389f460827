/**
 * `npm run bench:boot`: the embedded process's time from spawn to GET /readyz 200 with 0,
 * 1,000,000 and 10,000,000 events in the log. Each log is generated straight into events.sqlite
 * (a few fundraisers, then scans, appended in group commits), started once so the read models
 * catch up and persist, then restarted: what is measured is a restart with persisted read models.
 * The gateway runs as `npm start` runs it: the bundle `npm run build:server` makes, built first.
 * Targets: every restart within 3 s, and 10M within 1.5 times the empty log's.
 *
 *   npx tsx scripts/bench/boot.ts [--events 0,1000000,10000000] [--rounds 3]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { freePorts, type LaunchedProcess, launchProcess, runToEnd } from '@qrshirt/test-support';
import { bundleCommand } from '../server-bundles';
import { generateScanLog } from './generate-log';
import { writeStandaloneSection } from './report';

const TARGET_SECONDS = 3;
const TARGET_RATIO = 1.5;
/** The first start projects the whole log: generous, since 10M events take minutes. */
const CATCH_UP_TIMEOUT_MS = 60 * 60_000;
const RESTART_TIMEOUT_MS = 120_000;
const REPORT = 'docs/benchmarks.md';
const HEADING = '## Boot: time to /readyz against the length of the log (embedded process)';

interface Row {
  events: number;
  generateSeconds: number;
  catchUpSeconds: number;
  /** Each restart's seconds to /readyz 200, in the order measured. */
  restarts: number[];
}

/** Spawns the gateway as `npm start` runs it, waits for /readyz 200, stops it: seconds to ready. */
async function bootOnce(dataDir: string, timeoutMs: number): Promise<number> {
  const [port, opsPort] = await freePorts(2);
  const startedAt = performance.now();
  const gateway = launchProcess({
    name: 'gateway',
    command: bundleCommand('gateway'),
    env: {
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      OPS_PORT: String(opsPort),
      LOG_LEVEL: 'warn',
    },
  });
  let seconds: number;
  try {
    // /readyz is the operations port's.
    seconds = await ready(opsPort!, startedAt, timeoutMs, gateway);
  } catch (error) {
    await gateway.terminate();
    throw error;
  }
  // A clean stop, as an operator's restart: the runners record that they reached the head.
  const status = await gateway.terminate(60_000);
  if (status !== 0) throw new Error(`the gateway stopped with ${status}:\n${gateway.output.join('\n')}`);
  return seconds;
}

async function ready(port: number, startedAt: number, timeoutMs: number, gateway: LaunchedProcess): Promise<number> {
  for (;;) {
    if (gateway.hasExited) throw new Error(`the gateway exited:\n${gateway.output.join('\n')}`);
    if (performance.now() - startedAt > timeoutMs) throw new Error(`not ready within ${timeoutMs} ms`);
    const answered = await fetch(`http://127.0.0.1:${port}/readyz`).then(
      (answer) => answer.status === 200,
      () => false,
    );
    if (answered) return (performance.now() - startedAt) / 1000;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function measure(events: number, rounds: number): Promise<Row> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'qrshirt-bench-boot-'));
  try {
    let startedAt = performance.now();
    await generateScanLog(path.join(dataDir, 'events.sqlite'), events);
    const generateSeconds = (performance.now() - startedAt) / 1000;
    startedAt = performance.now();
    await bootOnce(dataDir, CATCH_UP_TIMEOUT_MS);
    const catchUpSeconds = (performance.now() - startedAt) / 1000;
    const restarts: number[] = [];
    for (let round = 0; round < rounds; round++) restarts.push(await bootOnce(dataDir, RESTART_TIMEOUT_MS));
    return { events, generateSeconds, catchUpSeconds, restarts };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

function table(rows: readonly Row[]): string {
  const empty = rows.find((row) => row.events === 0);
  const lines = [
    '| events in the log | generated in | first start (catch-up) | restarts to /readyz | median | over 0 events | target |',
    '| ---: | ---: | ---: | --- | ---: | ---: | --- |',
  ];
  for (const row of rows) {
    const restart = median(row.restarts);
    const ratio = empty ? restart / median(empty.restarts) : undefined;
    const met = restart <= TARGET_SECONDS && (row.events < 10_000_000 || ratio === undefined || ratio <= TARGET_RATIO);
    lines.push(
      `| ${row.events.toLocaleString('en')} | ${row.generateSeconds.toFixed(1)} s | ${row.catchUpSeconds.toFixed(1)} s | ` +
        `${row.restarts.map((seconds) => seconds.toFixed(2)).join(', ')} s | ${restart.toFixed(2)} s | ` +
        `${ratio === undefined ? '–' : ratio.toFixed(2)} | ${met ? 'met' : 'missed'} |`,
    );
  }
  return lines.join('\n');
}

/** Replaces this benchmark's section of docs/benchmarks.md (or adds it), leaving the others alone. */
function writeSection(figures: string): void {
  writeStandaloneSection(REPORT, {
    heading: HEADING,
    about: [
      'Written by `npm run bench:boot`. Spawn to the first `GET /readyz` 200, after a first start that',
      'projected the generated log (scans on a few fundraisers) into `read-models.sqlite` and stopped',
      `cleanly. Targets: each restart within ${TARGET_SECONDS} s; 10,000,000 events within ${TARGET_RATIO} times the empty log.`,
    ],
    figures,
  });
}

const { values } = parseArgs({
  options: {
    events: { type: 'string', default: '0,1000000,10000000' },
    rounds: { type: 'string', default: '3' },
  },
});
const sizes = values.events.split(',').map(Number);
const rounds = Number(values.rounds);
if (sizes.some((size) => !Number.isSafeInteger(size) || size < 0) || !(rounds >= 1)) {
  console.error('--events takes counts like 0,1000000 and --rounds a positive number');
  process.exit(2);
}
const built = await runToEnd({ name: 'build:server', entry: 'scripts/build-server.ts' });
if (built.status !== 0) throw new Error(`the server bundles did not build:\n${built.stderr}`);
const rows: Row[] = [];
for (const events of sizes) {
  console.error(`${events.toLocaleString('en')} events: generating, catching up, restarting…`);
  rows.push(await measure(events, rounds));
  console.error(table(rows));
}
const figures = table(rows);
console.log(figures);
writeSection(figures);
