/**
 * `npm run bench:backup`: `npm run backup` against the length of the log (100,000 and 1,000,000
 * events by default), and what it costs the scans the product takes meanwhile. Each log is
 * generated into events.sqlite, the gateway started on it (its read models catch up), then scans
 * run unpaced in windows that alternate: without a backup, with backups running back to back
 * (each into a new folder), without, with. Target: scans per second while backing up at least
 * 0.7 of those without.
 *
 *   npx tsx scripts/bench/backup.ts [--events 100000,1000000] [--seconds 8] [--rounds 4]
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { type GatewayProcess, runToEnd, startGatewayProcess, startScanLoad } from '@qrshirt/test-support';
import { GENERATED_FUNDRAISERS, generateScanLog } from './generate-log';
import { writeStandaloneSection } from './report';

const TARGET_RATIO = 0.7;
const CONCURRENCY = 8;
/** The first start projects the whole log: generous on a busy machine. */
const START_TIMEOUT_MS = 30 * 60_000;
const REPORT = 'docs/benchmarks.md';
const HEADING = '## Backup: time, size and cost to scans against the length of the log (embedded process)';
const backupCli = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../backup.ts');

interface Row {
  events: number;
  dataBytes: number;
  /** Each backup's seconds and the size of what it wrote, in the order taken. */
  backups: { seconds: number; bytes: number }[];
  /** Scans per second in each window without a backup, and with backups running. */
  without: number[];
  during: number[];
  /** The machine's 1-minute load average when the scans began and when they ended. */
  load: [number, number];
}

const folderBytes = (dir: string): number =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .reduce((sum, entry) => sum + statSync(path.join(entry.parentPath, entry.name)).size, 0);

async function backupOnce(dataDir: string): Promise<{ seconds: number; bytes: number }> {
  const parent = mkdtempSync(path.join(tmpdir(), 'qrshirt-bench-backup-to-'));
  try {
    const startedAt = performance.now();
    const run = await runToEnd({
      name: 'backup',
      entry: backupCli,
      args: ['--to', path.join(parent, 'backup')],
      env: { DATA_DIR: dataDir },
    });
    if (run.status !== 0) throw new Error(`the backup failed:\n${run.stderr}`);
    return { seconds: (performance.now() - startedAt) / 1000, bytes: folderBytes(parent) };
  } finally {
    rmSync(parent, { recursive: true, force: true });
  }
}

/** Scans per second answered 202 over `seconds`, while `alongside` (if any) runs over and over. */
async function scanWindow(
  gateway: GatewayProcess,
  seconds: number,
  alongside?: () => Promise<unknown>,
): Promise<number> {
  const load = startScanLoad({
    url: gateway.url,
    fundraiserIds: GENERATED_FUNDRAISERS,
    concurrency: CONCURRENCY,
    total: Number.MAX_SAFE_INTEGER,
  });
  const startedAt = performance.now();
  const endsAt = startedAt + seconds * 1000;
  if (alongside) {
    while (performance.now() < endsAt) await alongside();
  } else {
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  }
  await load.stop();
  const elapsed = (performance.now() - startedAt) / 1000;
  const failed = load.answers.filter((answer) => answer.status !== 202);
  if (failed.length > 0) throw new Error(`${failed.length} scans were not accepted: ${JSON.stringify(failed[0])}`);
  return load.answers.length / elapsed;
}

async function measure(events: number, seconds: number, rounds: number): Promise<Row> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'qrshirt-bench-backup-'));
  let gateway: GatewayProcess | undefined;
  try {
    await generateScanLog(path.join(dataDir, 'events.sqlite'), events);
    gateway = await startGatewayProcess({ DATA_DIR: dataDir }, START_TIMEOUT_MS);
    const row: Row = { events, dataBytes: 0, backups: [], without: [], during: [], load: [loadavg()[0]!, 0] };
    // A first window warms the gateway up (JIT, caches) and is not counted.
    await scanWindow(gateway, seconds);
    for (let round = 0; round < rounds; round++) {
      row.without.push(await scanWindow(gateway, seconds));
      row.during.push(await scanWindow(gateway, seconds, async () => row.backups.push(await backupOnce(dataDir))));
    }
    row.load[1] = loadavg()[0]!;
    row.dataBytes = folderBytes(dataDir);
    return row;
  } finally {
    await gateway?.terminate();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const sum = (values: readonly number[]): number => values.reduce((a, b) => a + b, 0);
const mean = (values: readonly number[]): number => sum(values) / values.length;
/** Other work on a shared machine swings single windows several-fold: the middle one is compared. */
const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length / 2;
  return sorted.length % 2 ? sorted[Math.floor(middle)]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};
const mib = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(1)} MiB`;

function table(rows: readonly Row[]): string {
  const lines = [
    '| events in the log | DATA_DIR | backups taken | backup time (mean, max) | backup size | scans/s without | scans/s during backups | ratio | target | load (1 min) at the first window, after the last |',
    '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: |',
  ];
  for (const row of rows) {
    const ratio = median(row.during) / median(row.without);
    const times = row.backups.map(({ seconds }) => seconds);
    lines.push(
      `| ${row.events.toLocaleString('en')} | ${mib(row.dataBytes)} | ${row.backups.length} | ` +
        `${mean(times).toFixed(2)} s, ${Math.max(...times).toFixed(2)} s | ${mib(mean(row.backups.map(({ bytes }) => bytes)))} | ` +
        `${row.without.map((rate) => rate.toFixed(0)).join(', ')} | ${row.during.map((rate) => rate.toFixed(0)).join(', ')} | ` +
        `${ratio.toFixed(2)} | ${ratio >= TARGET_RATIO ? 'met' : 'missed'} | ${row.load.map((load) => load.toFixed(1)).join(', ')} |`,
    );
  }
  return lines.join('\n');
}

const { values } = parseArgs({
  options: {
    events: { type: 'string', default: '100000,1000000' },
    seconds: { type: 'string', default: '8' },
    rounds: { type: 'string', default: '4' },
  },
});
const sizes = values.events.split(',').map(Number);
const seconds = Number(values.seconds);
const rounds = Number(values.rounds);
if (sizes.some((size) => !Number.isSafeInteger(size) || size < 1) || !(seconds > 0) || !(rounds >= 1)) {
  console.error('--events takes counts like 100000,1000000; --seconds and --rounds positive numbers');
  process.exit(2);
}
const rows: Row[] = [];
for (const events of sizes) {
  console.error(`${events.toLocaleString('en')} events: generating, starting, scanning with and without backups…`);
  rows.push(await measure(events, seconds, rounds));
  console.error(table(rows));
}
const figures = table(rows);
console.log(figures);
writeStandaloneSection(REPORT, {
  heading: HEADING,
  about: [
    'Written by `npm run bench:backup`. A generated log (scans on a few fundraisers), the gateway started',
    `on it (from the TypeScript sources), unpaced scans from ${CONCURRENCY} connections in windows of`,
    `${seconds} s (a first one to warm up, not counted) alternating without a backup and with \`npm run backup\``,
    'running back to back. Backup time: the command from start to exit, tsx start-up included. Backup',
    'size: the folder it wrote (databases, keys, manifest). Ratio: the median window during backups over the',
    `median window without. Target: at least ${TARGET_RATIO}.`,
  ],
  figures,
});
